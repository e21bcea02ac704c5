import { eventListQuery, importQuery, mlLanguage } from "@calendar/core";
import { z } from "zod";
import type { OpenApiMethod } from "./operations.ts";

/** The query of an event's own `.ics` file. */
export const fileQuery = z.object({
  password: z.string().optional().meta({ description: "The event's password, for a protected event." }),
  ml_language: mlLanguage,
});

export const slugParam = z.object({ slug: z.string().min(1) });

/** The feed takes the list's query; it is not paged. */
const UNPAGED = ["page", "per_page"] as const;

/**
 * The iCalendar routes beside the procedures (served by `ical.routes.ts`, described by `document-ical.ts`): what
 * the namespace index lists of them.
 */
export const ICAL_OPERATIONS: ReadonlyArray<{
  method: OpenApiMethod;
  path: string;
  input: z.ZodType;
  unlisted?: readonly string[];
}> = [
  { method: "GET", path: "/events.ics", input: eventListQuery, unlisted: UNPAGED },
  { method: "GET", path: "/events/{id}.ics", input: fileQuery },
  { method: "GET", path: "/events/by-slug/{slug}.ics", input: fileQuery },
  { method: "POST", path: "/import", input: importQuery },
];

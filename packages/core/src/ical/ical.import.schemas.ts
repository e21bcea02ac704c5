import { z } from "zod";
import { mlLanguage } from "../shared/language.ts";
import { wpBoolean } from "../shared/query.ts";

export const DEFAULT_HORIZON_MONTHS = 12;
/** The most occurrences of one imported series. */
export const DEFAULT_SERIES_CAP = 500;

/** What one imported file may write (`CALENDAR_IMPORT_MAX_EVENTS`, `CALENDAR_IMPORT_MAX_SERIES`); beyond, a 413. */
export interface ImportCaps {
  /** Events, single ones and occurrences of series together. */
  eventsPerFile: number;
  /** Recurring series (events with RRULE or RDATE). */
  seriesPerFile: number;
}

export const DEFAULT_IMPORT_CAPS: ImportCaps = { eventsPerFile: 2_000, seriesPerFile: 100 };

/** The query of `POST /import`. */
export const importQuery = z.object({
  dry_run: wpBoolean.optional().meta({ description: "true: answer what the import would do, write nothing." }),
  horizon_months: z.coerce
    .number()
    .int()
    .min(1)
    .max(120)
    .default(DEFAULT_HORIZON_MONTHS)
    .meta({ description: "How far recurring series are expanded (months from the later of their start and today)." }),
  ml_language: mlLanguage,
});
export type ImportQuery = z.infer<typeof importQuery>;

/** The tRPC form of `POST /import`: the file in the body beside the query's fields. */
export const importCalendarInput = importQuery.extend({
  calendar: z.string().min(1).meta({ description: "The iCalendar (RFC 5545) file's text." }),
});
export type ImportCalendarInput = z.infer<typeof importCalendarInput>;

const eventId = z.number().int();

export const importResult = z.object({
  created: z.array(eventId).meta({ description: "The ids of the events created." }),
  updated: z.array(eventId).meta({ description: "The ids of the events updated or trashed (cancelled)." }),
  unchanged: z.number().int().meta({ description: "How many events were already as the file has them." }),
  skipped: z
    .array(z.object({ uid: z.string(), reason: z.string() }))
    .meta({ description: "The file's events that were not imported (UID and why)." }),
  series: z.number().int().meta({ description: "How many recurring series were expanded." }),
});
export type ImportResult = z.infer<typeof importResult>;

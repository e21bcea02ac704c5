import { domainError } from "../errors.ts";
import type { ImportCaps } from "./ical.import.schemas.ts";

/** What the caps of one import count, and the cap of each. */
const CAPPED = {
  events: "eventsPerFile",
  "recurring series": "seriesPerFile",
} as const satisfies Record<string, keyof ImportCaps>;

/** A 413 `rest_import_too_large` when a file would import more of `what` than its cap allows. */
export function requireWithinCap(caps: ImportCaps, what: keyof typeof CAPPED, count: number): void {
  const limit = caps[CAPPED[what]];
  if (count > limit) throw domainError("rest_import_too_large", { count, limit, what }, { count, limit });
}

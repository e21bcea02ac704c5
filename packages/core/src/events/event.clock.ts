import { isAbsoluteDate } from "../shared/dates.ts";
import type { EventListQuery, ListDateParam } from "./event.schemas.ts";

const WINDOW: readonly ListDateParam[] = ["start_date", "end_date"];
const RELATIVE: readonly ListDateParam[] = ["starts_before", "starts_after", "ends_before", "ends_after"];

/**
 * Does the answer of `GET /events` move with the clock as well as with the data (see `listDateWindow`)? It does
 * when a date filter is read from now (`now`, `+1 week`, `tomorrow 9am`), and when a default bound applies: without
 * a relative filter, a missing `start_date` is yesterday and a missing `end_date` 24 months ahead. `include` drops
 * every date filter.
 */
export function eventListMovesWithClock(query: EventListQuery): boolean {
  if (query.include) return false;
  const hasRelative = RELATIVE.some((name) => query[name] !== undefined);
  if (!hasRelative && WINDOW.some((name) => query[name] === undefined)) return true;
  return [...WINDOW, ...RELATIVE].some((name) => {
    const value = query[name];
    return value !== undefined && !isAbsoluteDate(value);
  });
}

import { EVENT_LIST_PARAMS, LIST_PARAM_NAMES, type ListParam } from "./event.filters.ts";
import type { EventListQuery } from "./event.schemas.ts";

/**
 * Does the answer of `GET /events` move with the clock as well as with the data (see `listDateWindow`)? It does
 * when a parameter's value is read from now (each entry of `EVENT_LIST_PARAMS` declares which of its values are:
 * `now`, `+1 week`, `tomorrow 9am`), and when a default bound applies: without a relative filter, a missing
 * `start_date` is yesterday and a missing `end_date` 24 months ahead. `include` drops every date filter.
 */
export function eventListMovesWithClock(query: EventListQuery): boolean {
  if (query.include) return false;
  const relativeFilters = [query.starts_before, query.starts_after, query.ends_before, query.ends_after];
  const hasDefaultBound =
    relativeFilters.every((value) => value === undefined) && !(query.start_date && query.end_date);
  return hasDefaultBound || LIST_PARAM_NAMES.some((name) => valueMovesWithClock(EVENT_LIST_PARAMS[name], query[name]));
}

function valueMovesWithClock(entry: ListParam, value: unknown): boolean {
  return value !== undefined && value !== null && entry.movesWithClock(value);
}

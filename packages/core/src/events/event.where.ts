import type { PostWhere, StatusWhere } from "../auth/visibility.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { Language } from "../shared/language.ts";
import type { DateBounds } from "./event.dates.ts";

/** A list query with every reference resolved (term ids, venue distances), ready to become a `where`. */
export interface EventFilter {
  language: Language;
  status: StatusWhere;
  dates: DateBounds;
  /** The `where` of each filter given (`EVENT_LIST_PARAMS`), in the table's order. */
  selected: Prisma.EventWhereInput[];
  /**
   * The events whose protected details the caller sees, when a filter given reads them (`reads` of its entry);
   * undefined when none does or the caller sees every event's.
   */
  detailsShown: PostWhere | undefined;
  /** By start (the default), or by post date (with `include`). */
  order: "start" | "post-date";
  /**
   * Of a search around a point in start order: the venues within its radius, which the page's statement finds the
   * events of itself (`readGeoPage`); `buildEventWhere` states it as their relation filter.
   */
  nearVenueIds?: readonly number[] | undefined;
}

function earlier(a: Date | undefined, b: Date): Date {
  return a && a < b ? a : b;
}

/**
 * The date bounds on the start and end instants. An event never ends before it starts (writes refuse it), so a
 * bound on the end bounds the start too: stated, it closes the range the list's index reads (the start leads it),
 * which otherwise runs to the last event of the calendar.
 */
function dateConditions(dates: DateBounds): Prisma.EventWhereInput[] {
  const start: Prisma.DateTimeFilter = {};
  const end: Prisma.DateTimeFilter = {};
  if (dates.startFrom) start.gte = dates.startFrom;
  if (dates.startAfter) start.gt = dates.startAfter;
  if (dates.startBefore) start.lt = dates.startBefore;
  if (dates.endAfter) end.gt = dates.endAfter;
  if (dates.endBefore) {
    end.lt = dates.endBefore;
    start.lt = earlier(dates.startBefore, dates.endBefore);
  }
  if (dates.endUntil) {
    end.lte = dates.endUntil;
    start.lte = dates.endUntil;
  }
  return [
    ...(Object.keys(start).length ? [{ startUtc: start }] : []),
    ...(Object.keys(end).length ? [{ endUtc: end }] : []),
  ];
}

/**
 * The `where` of `GET /events`: the request's language, the statuses the actor may list, never events hidden
 * from listings, then every given filter (AND across filters, OR within a list). Filters on protected details
 * match only the events whose details the actor may see.
 */
export function buildEventWhere(filter: EventFilter): Prisma.EventWhereInput {
  return {
    AND: [
      { language: filter.language },
      filter.status,
      { hideFromListings: false },
      ...dateConditions(filter.dates),
      ...filter.selected,
      ...(filter.nearVenueIds ? [nearPointWhere(filter.nearVenueIds, undefined)] : []),
      ...(filter.detailsShown ? [filter.detailsShown] : []),
    ],
  };
}

/**
 * The events near a point: linked to one of the venues within its radius (`nearVenueIds`), or, cheaper to check,
 * the events linked to them (`nearEventIds`) when there are few enough to list.
 */
export function nearPointWhere(
  nearVenueIds: readonly number[],
  nearEventIds: readonly number[] | undefined,
): Prisma.EventWhereInput {
  if (nearEventIds) return { id: { in: [...nearEventIds] } };
  return { venues: { some: { venueId: { in: [...nearVenueIds] } } } };
}

/** Start, then post date, then id; with `include`, post date then id (docs/behaviour.md, "Event lists"). */
export function eventListOrder(filter: Pick<EventFilter, "order">): Prisma.EventOrderByWithRelationInput[] {
  const byPostDate: Prisma.EventOrderByWithRelationInput[] = [{ postDateUtc: "asc" }, { id: "asc" }];
  return filter.order === "post-date" ? byPostDate : [{ startUtc: "asc" }, ...byPostDate];
}

export interface GeoCandidate {
  id: number;
  startUtc: Date;
  postDateUtc: Date;
  venueIds: readonly number[];
}

/**
 * The order of a search around a point: start, then the nearest linked venue first, then post date and id.
 * `distances` holds the distance in km of each venue within the radius.
 */
export function orderByStartThenDistance<T extends GeoCandidate>(
  candidates: readonly T[],
  distances: ReadonlyMap<number, number>,
): T[] {
  const nearest = (candidate: GeoCandidate) =>
    Math.min(...candidate.venueIds.map((id) => distances.get(id) ?? Number.POSITIVE_INFINITY));
  return [...candidates].sort(
    (a, b) =>
      a.startUtc.getTime() - b.startUtc.getTime() ||
      nearest(a) - nearest(b) ||
      a.postDateUtc.getTime() - b.postDateUtc.getTime() ||
      a.id - b.id,
  );
}

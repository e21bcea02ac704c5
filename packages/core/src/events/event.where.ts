import { type DetailsAccess, detailsShownWhere, type StatusWhere } from "../auth/visibility.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { Language } from "../shared/language.ts";
import type { DateBounds } from "./event.dates.ts";
import { searchWordWhere } from "./event.search.ts";

/** A list query with every reference resolved (term ids, venue distances), ready to become a `where`. */
export interface EventFilter {
  language: Language;
  status: StatusWhere;
  dates: DateBounds;
  /** Normalized words that must all be contained in `searchText`. */
  searchWords: readonly string[];
  /**
   * Whose password-protected text the search may match (only titles for the others), and whose protected details
   * the filters on them may match (none for the others).
   */
  protectedText: DetailsAccess;
  categoryIds?: readonly number[] | undefined;
  tagIds?: readonly number[] | undefined;
  venueIds?: readonly number[] | undefined;
  organizerIds?: readonly number[] | undefined;
  featured?: boolean | undefined;
  ticketed?: boolean | undefined;
  postParent?: number | undefined;
  include?: readonly number[] | undefined;
  /** true: a linked venue has coordinates; false: none has. */
  geoloc?: boolean | undefined;
  /** Only events linked to one of these venues (those within the radius of `geoloc_lat`/`geoloc_lng`). */
  nearVenueIds?: readonly number[] | undefined;
  /** The events linked to those venues, when there are few enough to list: the same condition, checked cheaper. */
  nearEventIds?: readonly number[] | undefined;
}

const VENUE_HAS_COORDINATES = {
  venue: { geoLat: { not: null }, geoLng: { not: null } },
} satisfies Prisma.EventVenueWhereInput;

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

function geolocCondition(geoloc: boolean): Prisma.EventWhereInput {
  return geoloc ? { venues: { some: VENUE_HAS_COORDINATES } } : { venues: { none: VENUE_HAS_COORDINATES } };
}

/** Does the query filter on what a password protects (links, flags, the venue's place)? */
function filtersOnDetails(filter: EventFilter): boolean {
  const details = [filter.categoryIds, filter.tagIds, filter.venueIds, filter.organizerIds, filter.featured];
  return [...details, filter.ticketed, filter.geoloc, filter.nearVenueIds].some((value) => value !== undefined);
}

/**
 * The `where` of `GET /events`: the request's language, the statuses the actor may list, never events hidden
 * from listings, then every given filter (AND across filters, OR within a list). Filters on protected details
 * match only the events whose details the actor may see.
 */
export function buildEventWhere(filter: EventFilter): Prisma.EventWhereInput {
  const conditions: Prisma.EventWhereInput[] = [
    { language: filter.language },
    filter.status,
    { hideFromListings: false },
    ...dateConditions(filter.dates),
    ...filter.searchWords.map((word) => searchWordWhere(word, filter.protectedText)),
  ];
  if (filter.categoryIds) conditions.push({ categories: { some: { categoryId: { in: [...filter.categoryIds] } } } });
  if (filter.tagIds) conditions.push({ tags: { some: { tagId: { in: [...filter.tagIds] } } } });
  if (filter.venueIds) conditions.push({ venues: { some: { venueId: { in: [...filter.venueIds] } } } });
  if (filter.organizerIds) {
    conditions.push({ organizers: { some: { organizerId: { in: [...filter.organizerIds] } } } });
  }
  if (filter.featured !== undefined) conditions.push({ featured: filter.featured });
  if (filter.ticketed !== undefined) conditions.push({ ticketed: filter.ticketed });
  if (filter.postParent !== undefined) conditions.push({ parentId: filter.postParent });
  if (filter.include) conditions.push({ id: { in: [...filter.include] } });
  if (filter.geoloc !== undefined) conditions.push(geolocCondition(filter.geoloc));
  if (filter.nearEventIds) conditions.push({ id: { in: [...filter.nearEventIds] } });
  else if (filter.nearVenueIds) conditions.push({ venues: { some: { venueId: { in: [...filter.nearVenueIds] } } } });
  const visible = filtersOnDetails(filter) ? detailsShownWhere(filter.protectedText) : undefined;
  if (visible) conditions.push(visible);
  return { AND: conditions };
}

/** Start, then post date, then id; with `include`, post date then id (docs/behaviour.md, "Event lists"). */
export function eventListOrder(filter: Pick<EventFilter, "include">): Prisma.EventOrderByWithRelationInput[] {
  const byPostDate: Prisma.EventOrderByWithRelationInput[] = [{ postDateUtc: "asc" }, { id: "asc" }];
  return filter.include ? byPostDate : [{ startUtc: "asc" }, ...byPostDate];
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

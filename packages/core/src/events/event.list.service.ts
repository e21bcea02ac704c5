import { detailsAccess, isRedacted, listStatusWhere } from "../auth/visibility.ts";
import { type Db, MAX_BIND_VALUES } from "../db/db.ts";
import { domainError, invalidParam } from "../errors.ts";
import { Prisma } from "../generated/sqlite/client.ts";
import type { Scope } from "../scope.ts";
import { pageWindow } from "../shared/query.ts";
import { searchWords } from "../shared/search.ts";
import { findTermIdsForFilter } from "../terms/term.lookup.ts";
import { type DateBounds, listDateWindow } from "./event.dates.ts";
import { readEventPage, readEvents } from "./event.document.ts";
import { unknownLinkedIds } from "./event.errors.ts";
import { readGeoPage } from "./event.geo-page.ts";
import type { EventListOutput } from "./event.output.schemas.ts";
import { eventListLinks, presentEvent } from "./event.present.ts";
import { DEFAULT_GEOLOC_RADIUS_KM, type EventListQuery } from "./event.schemas.ts";
import { buildEventWhere, type EventFilter, eventListOrder } from "./event.where.ts";

interface GeoPoint {
  lat: number;
  lng: number;
  radiusKm: number;
}

const KM_PER_DEGREE_OF_LATITUDE = 111.195;

/**
 * The venues within the radius of a point, with their great-circle distance in km (haversine, clamped against
 * rounding). A latitude band narrows the scan through the coordinates index; the rest is computed in SQL.
 */
async function venueDistances(db: Db, point: GeoPoint): Promise<Map<number, number>> {
  const band = point.radiusKm / KM_PER_DEGREE_OF_LATITUDE;
  const rows = await db.$queryRaw<Array<{ id: number; distance: number }>>`
    SELECT "id", "distance" FROM (
      SELECT "id", 2 * 6371.0088 * asin(sqrt(CASE WHEN "a" > 1 THEN 1 ELSE "a" END)) AS "distance"
      FROM (
        SELECT "id",
          power(sin(radians("geoLat" - ${point.lat}) / 2), 2)
            + cos(radians(${point.lat})) * cos(radians("geoLat")) * power(sin(radians("geoLng" - ${point.lng}) / 2), 2)
            AS "a"
        FROM "Venue"
        WHERE "geoLat" IS NOT NULL AND "geoLng" IS NOT NULL AND "status" <> 'trash'
          AND "geoLat" BETWEEN ${point.lat - band} AND ${point.lat + band}
      ) AS "candidates"
    ) AS "near"
    WHERE "distance" <= ${point.radiusKm}`;
  return new Map(rows.map((row) => [Number(row.id), Number(row.distance)]));
}

/**
 * Above this many, the events near a point are found through their venue links in each statement instead: the
 * ids are bound values, and the rest of a list's statement (its other filters) must still fit.
 */
const MAX_LISTED_NEAR_EVENTS = MAX_BIND_VALUES - 2_766;

/**
 * The events of the language linked to any of the venues, or undefined when there are more than
 * `MAX_LISTED_NEAR_EVENTS`. The list's statements check `id IN (…)` by primary key; the relation filter they use
 * otherwise is a correlated `EXISTS` that probes every venue for every event in the window (1.7 s for a count at
 * 100,000 events on SQLite, against 75 ms this way). The subquery is uncorrelated on purpose: SQLite answers the
 * same as a join by probing every venue for every event of the language (0.9 s against 40 ms).
 */
async function eventsAtVenues(db: Db, venueIds: readonly number[], language: string): Promise<number[] | undefined> {
  if (!venueIds.length) return [];
  const rows = await db.$queryRaw<Array<{ eventId: number | bigint }>>`
    SELECT "id" AS "eventId" FROM "Event"
    WHERE "language" = ${language}
      AND "id" IN (SELECT "eventId" FROM "EventVenue" WHERE "venueId" IN (${Prisma.join([...venueIds])}))
    LIMIT ${MAX_LISTED_NEAR_EVENTS + 1}`;
  return rows.length > MAX_LISTED_NEAR_EVENTS ? undefined : rows.map((row) => Number(row.eventId));
}

function geoPointOf(query: EventListQuery): GeoPoint | undefined {
  if (query.geoloc_lat === undefined || query.geoloc_lng === undefined) return undefined;
  return { lat: query.geoloc_lat, lng: query.geoloc_lng, radiusKm: query.geoloc_radius ?? DEFAULT_GEOLOC_RADIUS_KM };
}

/** Every id must be an existing venue/organizer. */
function requireAllFound(param: "venue" | "organizer", ids: readonly number[], found: ReadonlyArray<{ id: number }>) {
  const known = new Set(found.map((row) => row.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw unknownLinkedIds(param, unknown);
}

/** The list query with its references resolved and checked (unknown ones are 400s naming their parameter). */
async function listFilterOf(
  scope: Scope,
  query: EventListQuery,
  dates: DateBounds,
  distances: ReadonlyMap<number, number> | undefined,
): Promise<EventFilter> {
  const { db } = scope;
  const status = listStatusWhere(scope.actor, query.status);
  const nearVenueIds = distances && [...distances.keys()];
  const [categoryIds, tagIds, venues, organizers, parent, nearEventIds] = await Promise.all([
    query.categories && findTermIdsForFilter(db, scope, "category", query.categories, "categories"),
    query.tags && findTermIdsForFilter(db, scope, "tag", query.tags, "tags"),
    query.venue && db.venue.findMany({ where: { id: { in: query.venue } }, select: { id: true } }),
    query.organizer && db.organizer.findMany({ where: { id: { in: query.organizer } }, select: { id: true } }),
    query.post_parent && db.event.findUnique({ where: { id: query.post_parent }, select: { id: true } }),
    nearVenueIds && eventsAtVenues(db, nearVenueIds, scope.language),
  ]);
  if (query.venue && venues) requireAllFound("venue", query.venue, venues);
  if (query.organizer && organizers) requireAllFound("organizer", query.organizer, organizers);
  if (query.post_parent && !parent) throw invalidParam("post_parent", `No event with the id ${query.post_parent}.`);
  return {
    language: scope.language,
    status,
    dates,
    searchWords: query.search ? searchWords(query.search) : [],
    protectedText: detailsAccess(scope.actor),
    categoryIds: categoryIds || undefined,
    tagIds: tagIds || undefined,
    venueIds: query.venue,
    organizerIds: query.organizer,
    featured: query.featured,
    ticketed: query.ticketed,
    postParent: query.post_parent,
    include: query.include,
    geoloc: query.geoloc,
    nearVenueIds,
    nearEventIds,
  };
}

/** The page of a search around a point, loaded in one more statement. */
async function geoEvents(
  scope: Scope,
  filter: EventFilter,
  query: EventListQuery,
  distances: ReadonlyMap<number, number>,
) {
  const page = { where: buildEventWhere(filter), orderBy: eventListOrder(filter), window: pageWindow(query) };
  const { total, ids } = await readGeoPage(scope, page, distances);
  return { total, ...(await readEvents(scope, ids)) };
}

/** What `GET /events` selects: the date window, and the filter with the distances of a search around a point. */
export async function listSelectionOf(scope: Scope, query: EventListQuery) {
  const window = listDateWindow(query, scope.site.timezone);
  const point = geoPointOf(query);
  const distances = point ? await venueDistances(scope.db, point) : undefined;
  const filter = await listFilterOf(scope, query, window.bounds, distances);
  return { window, distances, filter };
}

/** `GET /events` (docs/behaviour.md, "Event lists"). */
export async function listEvents(scope: Scope, query: EventListQuery): Promise<EventListOutput> {
  const { window, distances, filter } = await listSelectionOf(scope, query);
  const {
    total,
    rows,
    relations: relationsOf,
  } = distances && !filter.include
    ? await geoEvents(scope, filter, query, distances)
    : await readEventPage(scope, {
        where: buildEventWhere(filter),
        orderBy: eventListOrder(filter),
        window: pageWindow(query),
      });
  if (query.page > 1 && rows.length === 0) throw domainError("event-archive-page-not-found");
  const relations = await relationsOf({ jsonLd: false });
  const events = rows.map((row) =>
    presentEvent(row, relations, scope.links, { redacted: isRedacted(scope.actor, row, query.password) }),
  );
  return { events, ...eventListLinks(scope.links, query, window.echo, total) };
}

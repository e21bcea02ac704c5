import { detailsAccess, detailsShownWhere, isRedacted, listStatusWhere, type PostWhere } from "../auth/visibility.ts";
import { type Db, MAX_BIND_VALUES, readerOf } from "../db/db.ts";
import { columnsOf, JSON_SQL } from "../db/json-sql.ts";
import { SqlStatementBuilder, type TableSql } from "../db/where-sql.ts";
import { domainError } from "../errors.ts";
import { Prisma } from "../generated/sqlite/client.ts";
import type { Scope } from "../scope.ts";
import { pageWindow } from "../shared/query.ts";
import { type DateBounds, listDateWindow } from "./event.dates.ts";
import { readEventPage, readEvents } from "./event.document.ts";
import {
  DEFAULT_GEOLOC_RADIUS_KM,
  EVENT_LIST_PARAMS,
  type EventListQuery,
  filterGuard,
  LIST_PARAM_NAMES,
  type ListParam,
  readsEventDetails,
} from "./event.filters.ts";
import { readGeoPage } from "./event.geo-page.ts";
import type { EventListOutput } from "./event.output.schemas.ts";
import { eventListLinks, presentEvent } from "./event.present.ts";
import { buildEventWhere, type EventFilter, eventListOrder, nearPointWhere } from "./event.where.ts";

const VENUE_TABLE: TableSql = { table: "Venue" };

interface GeoPoint {
  lat: number;
  lng: number;
  radiusKm: number;
}

const KM_PER_DEGREE_OF_LATITUDE = 111.195;

/**
 * The venues within the radius of a point whose place the caller sees (`shown`), with their great-circle distance
 * in km (haversine, clamped against rounding). A latitude band narrows the scan through the coordinates index; the
 * rest is computed in SQL.
 */
async function venueDistances(
  scope: Scope,
  point: GeoPoint,
  shown: PostWhere | undefined,
): Promise<Map<number, number>> {
  const sql = JSON_SQL[scope.provider];
  const builder = new SqlStatementBuilder(scope.provider);
  const band = point.radiusKm / KM_PER_DEGREE_OF_LATITUDE;
  // SQLite binds in order of appearance, so each part is built in the order it is written.
  const haversine = `power(sin(radians(v."geoLat" - ${builder.bind(point.lat)}) / 2), 2)
    + cos(radians(${builder.bind(point.lat)})) * cos(radians(v."geoLat"))
      * power(sin(radians(v."geoLng" - ${builder.bind(point.lng)}) / 2), 2)`;
  const candidates = `SELECT v."id", ${haversine} AS "a" FROM "Venue" v
    WHERE v."geoLat" IS NOT NULL AND v."geoLng" IS NOT NULL AND v."status" <> 'trash'
      AND v."geoLat" BETWEEN ${builder.bind(point.lat - band)} AND ${builder.bind(point.lat + band)}
      AND ${shown ? builder.where(VENUE_TABLE, "v", shown) : "1 = 1"}`;
  const near = `SELECT "id", 2 * 6371.0088 * asin(sqrt(CASE WHEN "a" > 1 THEN 1 ELSE "a" END)) AS "distance"
    FROM (${candidates}) AS "candidates"`;
  const text = `SELECT ${sql.text(sql.aggregate(sql.object(columnsOf("n", ["id", "distance"]))))}
    FROM (${near}) AS n WHERE n."distance" <= ${builder.bind(point.radiusKm)}`;
  const rows = JSON.parse((await readerOf(scope.db).json(text, builder.params)) ?? "[]") as Array<{
    id: number;
    distance: number;
  }>;
  return new Map(rows.map((row) => [Number(row.id), Number(row.distance)]));
}

/**
 * Above this many, the events near a point are found through their venue links in each statement instead: the
 * ids are bound values, and the rest of a list's statement (its other filters) must still fit.
 */
const MAX_LISTED_NEAR_EVENTS = MAX_BIND_VALUES - 2_766;

/**
 * The events of the language linked to any of the venues, or undefined when there are more than
 * `MAX_LISTED_NEAR_EVENTS`: for a search around a point in post-date order (with `include`), whose statement
 * checks `id IN (…)` by primary key; the relation filter it uses otherwise is a correlated `EXISTS` that probes
 * every venue for every event in the window. The start order's statement finds them itself (`readGeoPage`).
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

/** The list query with its references resolved and checked (unknown ones are 400s naming their parameter). */
async function listFilterOf(
  scope: Scope,
  query: EventListQuery,
  dates: DateBounds,
  nearVenueIds: readonly number[] | undefined,
): Promise<EventFilter> {
  const given = LIST_PARAM_NAMES.filter((name) => query[name] !== undefined);
  const selected = await Promise.all(
    given.flatMap((name) => {
      const { selects, reads }: ListParam = EVENT_LIST_PARAMS[name];
      const value = query[name];
      if (typeof selects === "string" || value === undefined) return [];
      return [selects.select(scope, value, filterGuard(scope.actor, reads))];
    }),
  );
  const readsDetails = given.some((name) => readsEventDetails(EVENT_LIST_PARAMS[name].reads));
  const order = query.include ? "post-date" : "start";
  const near =
    nearVenueIds && order === "post-date"
      ? [nearPointWhere(nearVenueIds, await eventsAtVenues(scope.db, nearVenueIds, scope.language))]
      : [];
  return {
    language: scope.language,
    status: listStatusWhere(scope.actor, query.status),
    dates,
    selected: [...selected, ...near],
    detailsShown: readsDetails ? detailsShownWhere(detailsAccess(scope.actor)) : undefined,
    order,
    nearVenueIds: order === "start" ? nearVenueIds : undefined,
  };
}

/** The page of a search around a point, loaded in one more statement. */
async function geoEvents(
  scope: Scope,
  filter: EventFilter,
  query: EventListQuery,
  near: { distances: ReadonlyMap<number, number>; venueIds: readonly number[] },
) {
  const page = {
    where: buildEventWhere({ ...filter, nearVenueIds: undefined }),
    orderBy: eventListOrder(filter),
    window: pageWindow(query),
  };
  const { total, ids } = await readGeoPage(scope, page, near);
  return { total, ...(await readEvents(scope, ids)) };
}

/** The search around a point: the venues near it, with their distances. */
async function nearPoint(scope: Scope, point: GeoPoint) {
  const { linkedShown } = filterGuard(scope.actor, EVENT_LIST_PARAMS.geoloc_lat.reads);
  return venueDistances(scope, point, linkedShown);
}

/** A list of part of the events (the occurrences of a series), at its own path. */
export interface ListWithin {
  where: Prisma.EventWhereInput | undefined;
  path: `/${string}/`;
}

const ALL_EVENTS: ListWithin = { where: undefined, path: "/events/" };

/** What `GET /events` selects: the date window, and the filter with the distances of a search around a point. */
export async function listSelectionOf(scope: Scope, query: EventListQuery) {
  const window = listDateWindow(query, scope.site.timezone);
  const point = geoPointOf(query);
  const distances = point ? await nearPoint(scope, point) : undefined;
  const filter = await listFilterOf(scope, query, window.bounds, distances && [...distances.keys()]);
  return { window, distances, filter };
}

/** `GET /events` (docs/behaviour.md, "Event lists"). */
export async function listEvents(
  scope: Scope,
  query: EventListQuery,
  within: ListWithin = ALL_EVENTS,
): Promise<EventListOutput> {
  const { window, distances, filter: listFilter } = await listSelectionOf(scope, query);
  const filter = within.where ? { ...listFilter, selected: [...listFilter.selected, within.where] } : listFilter;
  const {
    total,
    rows,
    relations: relationsOf,
  } = distances && filter.nearVenueIds
    ? await geoEvents(scope, filter, query, { distances, venueIds: filter.nearVenueIds })
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
  return { events, ...eventListLinks(scope.links, query, window.echo, total, within.path) };
}

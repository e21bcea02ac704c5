import { type Provider, readerOf } from "../db/db.ts";
import { columnsOf, instantOf, JSON_SQL } from "../db/json-sql.ts";
import { type OrderByInput, orderBySql, SqlStatementBuilder, type TableSql, type WhereInput } from "../db/where-sql.ts";
import type { Scope } from "../scope.ts";
import { EVENT_TABLE } from "./event.table.ts";
import { type GeoCandidate, orderByStartThenDistance } from "./event.where.ts";

/**
 * A page of a search around a point (start, nearest venue, post date, id) in one statement. The database orders by
 * start and pages; the start times on a page are the same in both orders, so only the events starting at the
 * page's first to last start time (whole groups of equal starts at the edges) are read, with the events before
 * them counted, and put in distance order here.
 *
 * The events selected are found once (`matched`), for the total, the page's bounds and the candidates alike; the
 * events at the near venues are an uncorrelated subquery of their links, read through the venue index once. At
 * 100,000 events this was 94 ms on SQLite and up to 2.3 s on PostgreSQL (its generic plan of a prepared statement
 * searched the bound array of 20,000 ids linearly for every event of the window), with the ids read beforehand.
 */

interface StoredCandidate {
  id: number;
  startUtc: string;
  postDateUtc: string;
  venueIds: number[];
}

interface GeoDocument {
  total: number;
  before: number;
  candidates: StoredCandidate[];
}

interface GeoPageQuery {
  where: WhereInput;
  orderBy: OrderByInput;
  window: { skip: number; take: number };
}

const LINK_TABLE: TableSql = { table: "EventVenue" };

/**
 * PostgreSQL would join the near events' subquery with the window, and the generic plan of a prepared statement
 * (from its sixth run) estimates the window at a few rows and probes the links once per event of the window: 300 ms
 * at 100,000 events. Kept a subquery, it is hashed once whatever the estimates (100 ms). SQLite always does that.
 */
const KEEP_AS_SUBQUERY: Record<Provider, string> = { sqlite: "", postgres: " OFFSET 0" };

function statementOf(scope: Scope, query: GeoPageQuery, nearVenueIds: readonly number[]) {
  const sql = JSON_SQL[scope.provider];
  const builder = new SqlStatementBuilder(scope.provider);
  // SQLite binds in order of appearance, so each part is built in the order it is written.
  const selected = builder.where(EVENT_TABLE, "p", query.where);
  const atNearVenues = builder.where(LINK_TABLE, "l", { venueId: { in: [...nearVenueIds] } });
  const matched = `SELECT p."id", p."startUtc", p."postDateUtc" FROM "Event" p
    WHERE ${selected} AND p."id" IN (SELECT l."eventId" FROM "EventVenue" l WHERE ${atNearVenues}${KEEP_AS_SUBQUERY[scope.provider]})`;
  const page = `SELECT p."startUtc" FROM "matched" p ORDER BY ${orderBySql("p", query.orderBy)}
    LIMIT ${builder.bind(query.window.take)} OFFSET ${builder.bind(query.window.skip)}`;
  const bounds = `SELECT MIN("startUtc") AS "first", MAX("startUtc") AS "last" FROM (${page}) k`;
  const candidate = sql.object([
    ...columnsOf("e", ["id", "startUtc", "postDateUtc"]),
    ["venueIds", sql.array(`l."venueId"`, `FROM "EventVenue" l WHERE l."eventId" = e."id"`, `l."venueId"`)],
  ]);
  const document = sql.object([
    ["total", `(SELECT COUNT(*) FROM "matched")`],
    ["before", `(SELECT COUNT(*) FROM "matched" p, "bounds" b WHERE p."startUtc" < b."first")`],
    [
      "candidates",
      sql.array(candidate, `FROM "matched" e, "bounds" b WHERE e."startUtc" BETWEEN b."first" AND b."last"`, `e."id"`),
    ],
  ]);
  return {
    text: `WITH "matched" AS MATERIALIZED (${matched}), "bounds" AS (${bounds}) SELECT ${sql.text(document)}`,
    params: builder.params,
  };
}

/**
 * The number of events `where` selects at the near venues, and the ids of the page in the order of a search around
 * a point.
 */
export async function readGeoPage(
  scope: Scope,
  query: GeoPageQuery,
  near: { distances: ReadonlyMap<number, number>; venueIds: readonly number[] },
): Promise<{ total: number; ids: number[] }> {
  const { text, params } = statementOf(scope, query, near.venueIds);
  const json = await readerOf(scope.db).json(text, params);
  if (json === null) throw new Error("The page statement answers one row.");
  const { total, before, candidates } = JSON.parse(json) as GeoDocument;
  const revived: GeoCandidate[] = candidates.map((stored) => ({
    ...stored,
    startUtc: instantOf(stored.startUtc),
    postDateUtc: instantOf(stored.postDateUtc),
  }));
  const { skip, take } = query.window;
  const ordered = orderByStartThenDistance(revived, near.distances);
  return { total, ids: ordered.slice(skip - before, skip - before + take).map((candidate) => candidate.id) };
}

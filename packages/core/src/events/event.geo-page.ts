import { readerOf } from "../db/db.ts";
import { columnsOf, instantOf, JSON_SQL } from "../db/json-sql.ts";
import { type OrderByInput, orderBySql, SqlStatementBuilder, type WhereInput } from "../db/where-sql.ts";
import type { Scope } from "../scope.ts";
import { EVENT_TABLE } from "./event.table.ts";
import { type GeoCandidate, orderByStartThenDistance } from "./event.where.ts";

/**
 * A page of a search around a point (start, nearest venue, post date, id) in one statement. The database orders by
 * start and pages; the start times on a page are the same in both orders, so only the events starting at the
 * page's first to last start time (whole groups of equal starts at the edges) are read, with the events before
 * them counted, and put in distance order here.
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

function statementOf(scope: Scope, where: WhereInput, orderBy: OrderByInput, window: { skip: number; take: number }) {
  const sql = JSON_SQL[scope.provider];
  const builder = new SqlStatementBuilder(scope.provider);
  const matches = (alias: string) => builder.where(EVENT_TABLE, alias, where);
  // SQLite binds in order of appearance, so each part is built in the order it is written.
  const page = `SELECT p."startUtc" FROM "Event" p WHERE ${matches("p")} ORDER BY ${orderBySql("p", orderBy)} LIMIT ${builder.bind(window.take)} OFFSET ${builder.bind(window.skip)}`;
  const bounds = `SELECT MIN("startUtc") AS "first", MAX("startUtc") AS "last" FROM (${page}) k`;
  const total = `(SELECT COUNT(*) FROM "Event" p WHERE ${matches("p")})`;
  const before = `(SELECT COUNT(*) FROM "Event" p, bounds b WHERE ${matches("p")} AND p."startUtc" < b."first")`;
  const candidate = sql.object([
    ...columnsOf("e", ["id", "startUtc", "postDateUtc"]),
    ["venueIds", sql.array(`l."venueId"`, `FROM "EventVenue" l WHERE l."eventId" = e."id"`, `l."venueId"`)],
  ]);
  const candidates = sql.array(
    candidate,
    `FROM "Event" e, bounds b WHERE ${matches("e")} AND e."startUtc" BETWEEN b."first" AND b."last"`,
    `e."id"`,
  );
  const document = sql.object([
    ["total", total],
    ["before", before],
    ["candidates", candidates],
  ]);
  return { text: `WITH bounds AS (${bounds}) SELECT ${sql.text(document)}`, params: builder.params };
}

/** The number of events `where` selects, and the ids of the page in the order of a search around a point. */
export async function readGeoPage(
  scope: Scope,
  query: { where: WhereInput; orderBy: OrderByInput; window: { skip: number; take: number } },
  distances: ReadonlyMap<number, number>,
): Promise<{ total: number; ids: number[] }> {
  const { text, params } = statementOf(scope, query.where, query.orderBy, query.window);
  const json = await readerOf(scope.db).json(text, params);
  if (json === null) throw new Error("The page statement answers one row.");
  const { total, before, candidates } = JSON.parse(json) as GeoDocument;
  const revived: GeoCandidate[] = candidates.map((stored) => ({
    ...stored,
    startUtc: instantOf(stored.startUtc),
    postDateUtc: instantOf(stored.postDateUtc),
  }));
  const { skip, take } = query.window;
  const ordered = orderByStartThenDistance(revived, distances);
  return { total, ids: ordered.slice(skip - before, skip - before + take).map((candidate) => candidate.id) };
}

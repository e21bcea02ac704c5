import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import Fastify from "fastify";
import pg from "pg";
import { registerIcalLimit } from "./ical-limit.ts";

/**
 * The benchmark's "limit": a bare Fastify server that answers each read scenario with the same rows as the API, by
 * one hand-written SQL query through the database driver and `JSON.stringify`. It does nothing else (no
 * validation, no presentation, no related records), so its req/s is what the machine can do for that request;
 * the API's req/s is reported as a share of it. Started by the benchmark with DATABASE_URL and PORT; the site
 * time zone is UTC, as the benchmarked server's.
 */

type Row = Record<string, unknown>;
type Value = string | number | boolean | Date;

interface Driver {
  all(sql: string, params: Value[]): Promise<Row[]>;
}

function sqliteDriver(path: string): Driver {
  const db = new Database(path, { readonly: true });
  const statements = new Map<string, Database.Statement>();
  const bind = (value: Value) => {
    if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
    return typeof value === "boolean" ? Number(value) : value;
  };
  return {
    async all(sql, params) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      return statement.all(...params.map(bind)) as Row[];
    },
  };
}

function postgresDriver(url: string): Driver {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // Prisma keeps DateTime as UTC in "timestamp(3)" columns: compare with UTC wall times.
  const bind = (value: Value) =>
    value instanceof Date ? value.toISOString().replace("T", " ").replace("Z", "") : value;
  return {
    async all(sql, params) {
      let index = 0;
      const text = sql.replace(/\?/g, () => `$${++index}`);
      return (await pool.query(text, params.map(bind))).rows as Row[];
    },
  };
}

const url = process.env.DATABASE_URL ?? "";
const driver = url.startsWith("file:")
  ? sqliteDriver(url.startsWith("file://") ? fileURLToPath(url) : url.slice("file:".length))
  : postgresDriver(url);

const PER_PAGE = 9;
const EARTH_KM = 6371.0088;
const KM_PER_DEGREE = 111.195;
const TITLE_END = "\u001e";

type Query = Record<string, string | string[] | undefined>;

function list(query: Query, name: string): string[] {
  const value = query[name] ?? query[`${name}[]`];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).flatMap((item) => item.split(","));
}

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

function dayStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function dayEnd(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 23, 59, 59));
}

/** The API's default window: from yesterday 00:00 to the end of the day 24 months ahead (UTC site). */
function dateWindow(query: Query): [Date, Date] {
  const now = new Date();
  const start = single(query, "start_date");
  const end = single(query, "end_date");
  const from = start ? dayStart(new Date(start)) : dayStart(new Date(now.getTime() - 86_400_000));
  const ahead = new Date(now);
  ahead.setUTCMonth(ahead.getUTCMonth() + 24);
  return [from, end ? dayEnd(new Date(end)) : dayEnd(ahead)];
}

/**
 * One statement for a page and its total: the total is an uncorrelated subquery over the same rows (the database
 * counts it once, from an index where it can), the page is read in the list's order.
 */
function pageQuery(from: string, where: string, params: Value[], order: string): { sql: string; params: Value[] } {
  return {
    sql: `SELECT e.*, (SELECT COUNT(*) FROM ${from} WHERE ${where}) AS "total" FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ${PER_PAGE}`,
    params: [...params, ...params],
  };
}

/** `GET /events` with the scenarios' filters: default window, categories, tags, dates, one search word, a point. */
function eventListQuery(query: Query): { sql: string; params: Value[] } {
  const [from, until] = dateWindow(query);
  const conditions = [
    `e."language" = 'en'`,
    `e."status" = 'publish'`,
    `e."hideFromListings" = ?`,
    `e."startUtc" >= ?`,
    `e."endUtc" <= ?`,
  ];
  const params: Value[] = [false, from, until];
  const categories = list(query, "categories").map(Number);
  if (categories.length) {
    conditions.push(
      `EXISTS (SELECT 1 FROM "EventCategory" c WHERE c."eventId" = e."id" AND c."categoryId" IN (${categories.map(() => "?").join(",")}))`,
    );
    params.push(...categories);
  }
  const tags = list(query, "tags").map(Number);
  if (tags.length) {
    conditions.push(
      `EXISTS (SELECT 1 FROM "EventTag" t WHERE t."eventId" = e."id" AND t."tagId" IN (${tags.map(() => "?").join(",")}))`,
    );
    params.push(...tags);
  }
  const search = single(query, "search")?.toLowerCase();
  if (search) {
    conditions.push(
      `((e."password" = '' AND e."searchText" LIKE ?) OR (e."password" <> '' AND e."searchText" LIKE ?))`,
    );
    params.push(`%${search}%`, `%${search}%${TITLE_END}%`);
  }
  const lat = single(query, "geoloc_lat");
  const lng = single(query, "geoloc_lng");
  if (lat === undefined || lng === undefined) {
    return pageQuery(`"Event" e`, conditions.join(" AND "), params, `e."startUtc", e."postDateUtc", e."id"`);
  }
  const [la, ln, radius] = [Number(lat), Number(lng), 25];
  const band = radius / KM_PER_DEGREE;
  const haversine = `power(sin(radians(v."geoLat" - ${la}) / 2), 2) + cos(radians(${la})) * cos(radians(v."geoLat")) * power(sin(radians(v."geoLng" - ${ln}) / 2), 2)`;
  const near = `(SELECT ev."eventId", MIN(2 * ${EARTH_KM} * asin(sqrt(CASE WHEN h."a" > 1 THEN 1 ELSE h."a" END))) AS "distance"
      FROM "EventVenue" ev JOIN (SELECT v."id", ${haversine} AS "a" FROM "Venue" v
        WHERE v."geoLat" BETWEEN ${la - band} AND ${la + band} AND v."geoLng" IS NOT NULL AND v."status" <> 'trash') h ON h."id" = ev."venueId"
      GROUP BY ev."eventId")`;
  return pageQuery(
    `"Event" e JOIN ${near} n ON n."eventId" = e."id"`,
    `${conditions.join(" AND ")} AND n."distance" <= ${radius}`,
    params,
    `e."startUtc", n."distance", e."postDateUtc", e."id"`,
  );
}

/** A page with its total (every row carries it, from the window function). */
function page(key: string, rows: Row[]): string {
  const total = Number(rows[0]?.total ?? 0);
  return JSON.stringify({ [key]: rows, total, total_pages: Math.ceil(total / PER_PAGE) });
}

const server = Fastify({ logger: false });
const BASE = "/cal/events/v1";

server.get(`${BASE}/events`, async (request, reply) => {
  const { sql, params } = eventListQuery(request.query as Query);
  reply.type("application/json");
  return page("events", await driver.all(sql, params));
});

server.get<{ Params: { id: string } }>(`${BASE}/events/:id`, async (request, reply) => {
  const [row] = await driver.all(`SELECT * FROM "Event" WHERE "id" = ?`, [Number(request.params.id)]);
  reply.type("application/json");
  return JSON.stringify(row ?? null);
});

server.get<{ Params: { slug: string } }>(`${BASE}/events/by-slug/:slug`, async (request, reply) => {
  const [row] = await driver.all(`SELECT * FROM "Event" WHERE "language" = 'en' AND "slug" = ?`, [request.params.slug]);
  reply.type("application/json");
  return JSON.stringify(row ?? null);
});

server.get(`${BASE}/venues`, async (request, reply) => {
  const search = single(request.query as Query, "search")?.toLowerCase() ?? "";
  const rows = await driver.all(
    `SELECT v.*, COUNT(*) OVER () AS "total" FROM "Venue" v WHERE v."language" = 'en' AND v."status" = 'publish' AND v."searchText" LIKE ? ORDER BY v."postDateUtc" DESC, v."id" DESC LIMIT ${PER_PAGE}`,
    [`%${search}%`],
  );
  reply.type("application/json");
  return page("venues", rows);
});

server.get(`${BASE}/categories`, async (_request, reply) => {
  const rows = await driver.all(
    `SELECT c.*, COUNT(*) OVER () AS "total" FROM "Category" c WHERE c."language" = 'en' AND c."eventCount" > 0
      ORDER BY c."nameKey", c."id" LIMIT ${PER_PAGE}`,
    [],
  );
  reply.type("application/json");
  return page("categories", rows);
});

registerIcalLimit(server, driver);

await server.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });

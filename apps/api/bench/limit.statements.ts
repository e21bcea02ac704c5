import type { Provider } from "@calendar/core";

/**
 * The fair limit's statements: for each read scenario ONE hand-written SQL statement per provider that returns
 * everything the API's response is made of (the page's events with their image, venues and organizers (with their
 * images), categories, tags and translations; the total), built into one JSON document by the database
 * (`json_object`/`json_group_array` in SQLite, `json_build_object`/`json_agg` in PostgreSQL). Served as is by the
 * limit server and through the project's REST stack by the floor server.
 */

export type Value = string | number | boolean | Date;
export type Query = Record<string, unknown>;

export interface Statement {
  sql: string;
  params: Value[];
}

/** One read the limit answers: its path (Fastify's `:param` form) and its statement for a provider. */
export interface LimitRoute {
  path: `/${string}`;
  statement(dialect: Dialect, params: Record<string, string>, query: Query): Statement;
}

/** What differs between the providers' JSON functions. */
export interface Dialect {
  /** A JSON object of `key → SQL expression` pairs. */
  object(pairs: Record<string, string>): string;
  /** A JSON array of `doc`, one per row of `from` (FROM … WHERE …) in `order`; `[]` when none. */
  array(doc: string, from: string, order: string): string;
  /** A JSON value from a scalar subquery that returns one JSON document (or none: null). */
  nested(subquery: string): string;
  /** The final document as text. */
  text(doc: string): string;
}

const sqlite: Dialect = {
  object: (pairs) => `json_object(${Object.entries(pairs).flatMap(([key, value]) => [`'${key}'`, value])})`,
  // A subquery's column loses SQLite's JSON subtype: json() gives it back, so documents nest instead of quoting.
  array: (doc, from, order) =>
    `json((SELECT json_group_array(json("d")) FROM (SELECT ${doc} AS "d" ${from} ORDER BY ${order})))`,
  nested: (subquery) => `json((${subquery}))`,
  text: (doc) => doc,
};

const postgres: Dialect = {
  object: (pairs) => `json_build_object(${Object.entries(pairs).flatMap(([key, value]) => [`'${key}'`, value])})`,
  array: (doc, from, order) => `(SELECT coalesce(json_agg(${doc} ORDER BY ${order}), '[]'::json) ${from})`,
  nested: (subquery) => `(${subquery})`,
  text: (doc) => `(${doc})::text`,
};

export function dialectOf(provider: Provider): Dialect {
  return provider === "sqlite" ? sqlite : postgres;
}

const EVENT_COLUMNS = [
  "id",
  "title",
  "slug",
  "description",
  "excerpt",
  "status",
  "authorId",
  "language",
  "translationGroup",
  "postDate",
  "postDateUtc",
  "modified",
  "modifiedUtc",
  "startLocal",
  "endLocal",
  "startUtc",
  "endUtc",
  "timezone",
  "allDay",
  "password",
  "hideFromListings",
  "sticky",
  "featured",
  "showMap",
  "showMapLink",
  "website",
  "cost",
  "imageId",
  "parentId",
  "ticketed",
];
const POST_COLUMNS = [
  "id",
  "name",
  "slug",
  "description",
  "excerpt",
  "status",
  "authorId",
  "language",
  "translationGroup",
  "postDate",
  "postDateUtc",
  "modified",
  "modifiedUtc",
  "password",
  "website",
  "imageId",
];
const VENUE_COLUMNS = [
  ...POST_COLUMNS,
  "address",
  "city",
  "country",
  "province",
  "state",
  "zip",
  "phone",
  "stateprovince",
  "showMap",
  "showMapLink",
  "geoLat",
  "geoLng",
];
const ORGANIZER_COLUMNS = [...POST_COLUMNS, "phone", "email"];
const CATEGORY_COLUMNS = [
  "id",
  "name",
  "slug",
  "description",
  "parentId",
  "language",
  "translationGroup",
  "eventCount",
];
const TAG_COLUMNS = ["id", "name", "slug", "description", "language", "translationGroup", "eventCount"];

const columnsOf = (alias: string, columns: readonly string[]) =>
  Object.fromEntries(columns.map((column) => [column, `${alias}."${column}"`]));

function image(d: Dialect, alias: string): string {
  return d.nested(
    `SELECT ${d.object({ id: `i."id"`, url: `i."url"` })} FROM "Image" i WHERE i."id" = ${alias}."imageId"`,
  );
}

/** The other members of a row's translation group that are published: what `translations` name. */
function translations(d: Dialect, table: string, alias: string, published: string): string {
  return d.array(
    d.object({ id: `t."id"`, language: `t."language"` }),
    `FROM "${table}" t WHERE t."translationGroup" = ${alias}."translationGroup" AND t."id" <> ${alias}."id"${published}`,
    `t."language"`,
  );
}

const PUBLISHED = ` AND t."status" = 'publish'`;

function venueDoc(d: Dialect, alias: string): string {
  return d.object({
    ...columnsOf(alias, VENUE_COLUMNS),
    image: image(d, alias),
    translations: translations(d, "Venue", alias, PUBLISHED),
  });
}

function organizerDoc(d: Dialect, alias: string): string {
  return d.object({
    ...columnsOf(alias, ORGANIZER_COLUMNS),
    image: image(d, alias),
    translations: translations(d, "Organizer", alias, PUBLISHED),
  });
}

const termDoc = (d: Dialect, alias: string, columns: readonly string[], table: string) =>
  d.object({ ...columnsOf(alias, columns), translations: translations(d, table, alias, "") });

/** An event with everything it shows. */
function eventDoc(d: Dialect, e: string): string {
  return d.object({
    ...columnsOf(e, EVENT_COLUMNS),
    image: image(d, e),
    venues: d.array(
      venueDoc(d, "v"),
      `FROM "EventVenue" l JOIN "Venue" v ON v."id" = l."venueId" WHERE l."eventId" = ${e}."id"`,
      `l."position"`,
    ),
    organizers: d.array(
      organizerDoc(d, "o"),
      `FROM "EventOrganizer" l JOIN "Organizer" o ON o."id" = l."organizerId" WHERE l."eventId" = ${e}."id"`,
      `l."position"`,
    ),
    categories: d.array(
      termDoc(d, "c", CATEGORY_COLUMNS, "Category"),
      `FROM "EventCategory" l JOIN "Category" c ON c."id" = l."categoryId" WHERE l."eventId" = ${e}."id"`,
      `c."id"`,
    ),
    tags: d.array(
      termDoc(d, "g", TAG_COLUMNS, "Tag"),
      `FROM "EventTag" l JOIN "Tag" g ON g."id" = l."tagId" WHERE l."eventId" = ${e}."id"`,
      `g."id"`,
    ),
    translations: translations(d, "Event", e, PUBLISHED),
  });
}

const PER_PAGE = 9;
const EARTH_KM = 6371.0088;
const KM_PER_DEGREE = 111.195;
const TITLE_END = "\u001e";
const NEAR_RADIUS_KM = 25;

function list(query: Query, name: string): string[] {
  const value = query[name] ?? query[`${name}[]`];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).flatMap((item) => String(item).split(","));
}

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : String(first);
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
 * A page of rows (`from` is aliased `e`) and its total as one document: the page in a CTE read in the list's
 * order, the total an uncorrelated subquery over the same rows (counted once, from an index where it can be).
 */
function pageStatement(
  d: Dialect,
  key: string,
  doc: (alias: string) => string,
  from: string,
  where: string,
  params: Value[],
  order: (alias: string) => string,
): Statement {
  const page = `SELECT e.* FROM ${from} WHERE ${where} ORDER BY ${order("e")} LIMIT ${PER_PAGE}`;
  const body = d.object({
    [key]: d.array(doc("p"), `FROM "page" p`, order("p")),
    total: `(SELECT COUNT(*) FROM ${from} WHERE ${where})`,
  });
  return { sql: `WITH "page" AS (${page}) SELECT ${d.text(body)} AS "body"`, params: [...params, ...params] };
}

/** The conditions of the list's filters on `e`, and their parameters. */
function eventFilters(query: Query): { conditions: string[]; params: Value[] } {
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
  return { conditions, params };
}

/** `GET /events` with the scenarios' filters: default window, categories, tags, dates, one search word, a point. */
function eventList(d: Dialect, query: Query): Statement {
  const { conditions, params } = eventFilters(query);
  const doc = (alias: string) => eventDoc(d, alias);
  const lat = single(query, "geoloc_lat");
  const lng = single(query, "geoloc_lng");
  if (lat === undefined || lng === undefined) {
    return pageStatement(
      d,
      "events",
      doc,
      `"Event" e`,
      conditions.join(" AND "),
      params,
      (a) => `${a}."startUtc", ${a}."postDateUtc", ${a}."id"`,
    );
  }
  const [la, ln] = [Number(lat), Number(lng)];
  const band = NEAR_RADIUS_KM / KM_PER_DEGREE;
  const haversine = `power(sin(radians(v."geoLat" - ${la}) / 2), 2) + cos(radians(${la})) * cos(radians(v."geoLat")) * power(sin(radians(v."geoLng" - ${ln}) / 2), 2)`;
  const near = `(SELECT ev."eventId", MIN(2 * ${EARTH_KM} * asin(sqrt(CASE WHEN h."a" > 1 THEN 1 ELSE h."a" END))) AS "distance"
      FROM "EventVenue" ev JOIN (SELECT v."id", ${haversine} AS "a" FROM "Venue" v
        WHERE v."geoLat" BETWEEN ${la - band} AND ${la + band} AND v."geoLng" IS NOT NULL AND v."status" <> 'trash') h ON h."id" = ev."venueId"
      GROUP BY ev."eventId")`;
  return pageStatement(
    d,
    "events",
    doc,
    `(SELECT e.*, n."distance" FROM "Event" e JOIN ${near} n ON n."eventId" = e."id") e`,
    `${conditions.join(" AND ")} AND e."distance" <= ${NEAR_RADIUS_KM}`,
    params,
    (a) => `${a}."startUtc", ${a}."distance", ${a}."postDateUtc", ${a}."id"`,
  );
}

function eventWhere(d: Dialect, where: string, params: Value[]): Statement {
  return { sql: `SELECT ${d.text(eventDoc(d, "p"))} AS "body" FROM "Event" p WHERE ${where}`, params };
}

/** The reads of the benchmark's scenarios; another scenario registers its route here. */
export const LIMIT_ROUTES: LimitRoute[] = [
  { path: "/events", statement: (d, _params, query) => eventList(d, query) },
  { path: "/events/:id", statement: (d, params) => eventWhere(d, `p."id" = ?`, [Number(params.id)]) },
  {
    path: "/events/by-slug/:slug",
    statement: (d, params) => eventWhere(d, `p."language" = 'en' AND p."slug" = ?`, [params.slug ?? ""]),
  },
  {
    path: "/venues",
    statement: (d, _params, query) =>
      pageStatement(
        d,
        "venues",
        (alias) => venueDoc(d, alias),
        `"Venue" e`,
        `e."language" = 'en' AND e."status" = 'publish' AND e."searchText" LIKE ?`,
        [`%${single(query, "search")?.toLowerCase() ?? ""}%`],
        (a) => `${a}."postDateUtc" DESC, ${a}."id" DESC`,
      ),
  },
  {
    path: "/categories",
    statement: (d) =>
      pageStatement(
        d,
        "categories",
        (alias) => termDoc(d, alias, CATEGORY_COLUMNS, "Category"),
        `"Category" e`,
        `e."language" = 'en' AND e."eventCount" > 0`,
        [],
        (a) => `${a}."nameKey", ${a}."id"`,
      ),
  },
];

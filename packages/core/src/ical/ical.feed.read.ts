import { isRedacted } from "../auth/visibility.ts";
import { readerOf } from "../db/db.ts";
import { columnsOf, flagOf, instantOf, JSON_SQL, type JsonSql, perProvider } from "../db/json-sql.ts";
import { keysOf } from "../db/page-sql.ts";
import type { SqlParam } from "../db/reader.ts";
import { orderBySql, SqlStatementBuilder } from "../db/where-sql.ts";
import { EVENT_TABLE } from "../events/event.table.ts";
import { linkedPostView } from "../events/event.visibility.ts";
import type { EventFilter } from "../events/event.where.ts";
import { buildEventWhere, eventListOrder } from "../events/event.where.ts";
import type { Scope } from "../scope.ts";
import { formatWallTime } from "../shared/dates.ts";
import { presentImage } from "../shared/images.ts";
import { permalink } from "../shared/links.ts";
import { listText, listTextColumns } from "../shared/list-text.ts";
import { byNameThenId } from "../shared/name-order.ts";
import { type FeedEvent, type FeedOutline, type FeedSchedule, type FeedVenue, icalSourceOf } from "./ical.feed.ts";

/**
 * The feed's events in two steps: the rows `GET /events` selects, in its order, with only what places each in the
 * feed (its series, what its VTIMEZONE depends on), then, a page at a time, each event with only what the iCalendar
 * form writes (its first venue and organizer, its category names, its image and its iCalendar identity), as one
 * JSON document built by the database. The list's page statement also counts the rows and carries what the JSON
 * shows (details, translations, every linked record's own links); a feed needs none of it.
 */

interface Owned {
  password: string;
  status: string;
  authorId: number | null;
}

interface StoredVenue extends Owned {
  name: string;
  address: string;
  zip: string;
  city: string;
  country: string;
  geoLat: number | null;
  geoLng: number | null;
}

interface StoredOrganizer extends Owned {
  name: string;
  email: string;
}

interface StoredFeedEvent extends Owned {
  id: number;
  title: string;
  description: string;
  slug: string;
  language: string;
  allDay: boolean | number;
  timezone: string;
  startLocal: string;
  endLocal: string;
  startUtc: string;
  endUtc: string;
  postDateUtc: string;
  modifiedUtc: string;
  icalUid: string | null;
  icalRecurrenceId: string | null;
  sequence: number;
  seriesId: number | null;
  originalStartLocal: string | null;
  overrides: string;
  image: { id: number; url: string } | null;
  venue: StoredVenue | null;
  organizer: StoredOrganizer | null;
  categories: Array<{ id: number; name: string }>;
}

const EVENT_COLUMNS = [
  "id",
  "title",
  "description",
  "status",
  "password",
  "authorId",
  "slug",
  "language",
  "allDay",
  "timezone",
  "startLocal",
  "endLocal",
  "startUtc",
  "endUtc",
  "postDateUtc",
  "modifiedUtc",
  "icalUid",
  "icalRecurrenceId",
  "sequence",
  "seriesId",
  "originalStartLocal",
  "overrides",
];
const OWNED_COLUMNS = ["name", "password", "status", "authorId"];
const VENUE_COLUMNS = [...OWNED_COLUMNS, "address", "zip", "city", "country", "geoLat", "geoLng"];
const ORGANIZER_COLUMNS = [...OWNED_COLUMNS, "email"];

/**
 * An event of the page (aliased `e`) as the feed reads it, its description as a list shows it (`shared/list-text.ts`:
 * a feed of 2,000 events with 1 MiB descriptions would be gigabytes); linked records as the event's JSON lists them.
 */
function feedDocumentOf(sql: JsonSql): string {
  // The first venue and organizer in the order of their links, trashed ones left out: all the feed writes of them.
  const first = (table: string, link: string, column: string, columns: readonly string[]) =>
    sql.value(
      `SELECT ${sql.object(columnsOf("p", columns))} FROM "${link}" l JOIN "${table}" p ON p."id" = l."${column}"
        WHERE l."eventId" = e."id" AND p."status" <> 'trash' ORDER BY l."position", l."${column}" LIMIT 1`,
    );
  return sql.object([
    ...listTextColumns("e", EVENT_COLUMNS),
    [
      "image",
      sql.value(`SELECT ${sql.object(columnsOf("i", ["id", "url"]))} FROM "Image" i WHERE i."id" = e."imageId"`),
    ],
    ["venue", first("Venue", "EventVenue", "venueId", VENUE_COLUMNS)],
    ["organizer", first("Organizer", "EventOrganizer", "organizerId", ORGANIZER_COLUMNS)],
    [
      "categories",
      sql.array(
        sql.object(columnsOf("c", ["id", "name"])),
        `FROM "EventCategory" l JOIN "Category" c ON c."id" = l."categoryId" WHERE l."eventId" = e."id"`,
        `c."id"`,
      ),
    ],
  ]);
}

const DOCUMENTS = perProvider(feedDocumentOf);

/** The columns of an event that place it in the feed: its series, and what its VTIMEZONE depends on. */
const OUTLINE_COLUMNS = [
  "id",
  "seriesId",
  "password",
  "status",
  "authorId",
  "allDay",
  "timezone",
  "startLocal",
  "endLocal",
];

interface StoredOutline extends Owned {
  id: number;
  seriesId: number | null;
  allDay: boolean | number;
  timezone: string;
  startLocal: string;
  endLocal: string;
}

/** The first `take` rows `filter` selects, in the list's order, each with what places it in the feed. */
function outlineStatement(scope: Scope, filter: EventFilter, take: number) {
  const sql = JSON_SQL[scope.provider];
  const builder = new SqlStatementBuilder(scope.provider);
  const order = eventListOrder(filter);
  const keys = keysOf(order).map((key) => `p."${key}"`);
  const where = builder.where(EVENT_TABLE, "p", buildEventWhere(filter));
  const selected = `SELECT ${keys.join(", ")} FROM "Event" p WHERE ${where} ORDER BY ${orderBySql("p", order)} LIMIT ${builder.bind(take)}`;
  const outline = sql.object(columnsOf("e", OUTLINE_COLUMNS));
  const rows = sql.array(outline, `FROM (${selected}) k JOIN "Event" e ON e."id" = k."id"`, orderBySql("k", order));
  return { text: `SELECT ${sql.text(rows)}`, params: builder.params };
}

/** The events of `ids` (in any order). */
function documentsStatement(scope: Scope, ids: readonly number[]) {
  const sql = JSON_SQL[scope.provider];
  const builder = new SqlStatementBuilder(scope.provider);
  const where = builder.where(EVENT_TABLE, "e", { id: { in: [...ids] } });
  const rows = sql.array(DOCUMENTS[scope.provider], `FROM "Event" e WHERE ${where}`, `e."id"`);
  return { text: `SELECT ${sql.text(rows)}`, params: builder.params };
}

/** The category names in the order the event's JSON lists its terms: by name (case-insensitive), then id. */
function categoryNames(categories: StoredFeedEvent["categories"]): string[] {
  return categories.sort(byNameThenId).map((category) => category.name);
}

/** A venue's fields as its JSON shows them: empty ones absent, the details hidden while it is protected. */
function feedVenueOf(scope: Scope, venue: StoredVenue | null): FeedVenue | undefined {
  const view = venue && linkedPostView(scope.actor, venue);
  if (!venue || !view) return undefined;
  if (view.redacted) return { venue: venue.name };
  const text = (value: string) => value || undefined;
  return {
    venue: venue.name,
    address: text(venue.address),
    zip: text(venue.zip),
    city: text(venue.city),
    country: text(venue.country),
    geo_lat: venue.geoLat ?? undefined,
    geo_lng: venue.geoLng ?? undefined,
  };
}

function feedOrganizerOf(scope: Scope, organizer: StoredOrganizer | null): FeedEvent["organizer"] {
  const view = organizer && linkedPostView(scope.actor, organizer);
  if (!organizer || !view) return undefined;
  const email = view.redacted ? undefined : organizer.email || undefined;
  return { organizer: organizer.name, email };
}

const utcWallTime = (stored: string) => formatWallTime(instantOf(stored), "UTC");

/** When an event happens, as the feed writes it (its all-day flag hidden while it is protected). */
function scheduleOf(
  row: Pick<StoredOutline, "allDay" | "timezone" | "startLocal" | "endLocal">,
  redacted: boolean,
): FeedSchedule {
  return {
    all_day: redacted ? null : flagOf(row.allDay),
    timezone: row.timezone,
    start_date: row.startLocal,
    end_date: row.endLocal,
  };
}

/** An event as the feed writes it, with what the same caller's `GET /events` shows of a protected one. */
function feedEventOfRow(scope: Scope, row: StoredFeedEvent, password: string | undefined): FeedEvent {
  const redacted = isRedacted(scope.actor, row, password);
  const image = redacted ? false : presentImage(row.image);
  return {
    id: row.id,
    title: row.title,
    description: redacted ? "" : listText(row.description),
    url: permalink(scope.links, "event", row),
    status: row.status,
    ...scheduleOf(row, redacted),
    utc_start_date: utcWallTime(row.startUtc),
    utc_end_date: utcWallTime(row.endUtc),
    date_utc: utcWallTime(row.postDateUtc),
    modified_utc: utcWallTime(row.modifiedUtc),
    venue: redacted ? undefined : feedVenueOf(scope, row.venue),
    organizer: redacted ? undefined : feedOrganizerOf(scope, row.organizer),
    categories: redacted ? [] : categoryNames(row.categories),
    image: image ? { url: image.url, extension: image.extension } : undefined,
    source: icalSourceOf(row),
  };
}

async function readRows<T>(scope: Scope, statement: { text: string; params: readonly SqlParam[] }): Promise<T[]> {
  const json = await readerOf(scope.db).json(statement.text, statement.params);
  return JSON.parse(json ?? "[]") as T[];
}

/**
 * The first `take` rows `filter` selects, in the list's order, with only what places each in the feed: a feed reads
 * its events' own fields a page at a time (`readFeedEventsById`).
 */
export async function readFeedOutline(
  scope: Scope,
  filter: EventFilter,
  take: number,
  password: string | undefined,
): Promise<FeedOutline[]> {
  const rows = await readRows<StoredOutline>(scope, outlineStatement(scope, filter, take));
  return rows.map((row) => {
    const schedule = scheduleOf(row, isRedacted(scope.actor, row, password));
    return { id: row.id, seriesId: row.seriesId, schedule };
  });
}

/** The events of `ids` as the feed writes them, in the order of `ids`; those gone since are left out. */
export async function readFeedEventsById(
  scope: Scope,
  ids: readonly number[],
  password: string | undefined,
): Promise<FeedEvent[]> {
  if (!ids.length) return [];
  const rows = await readRows<StoredFeedEvent>(scope, documentsStatement(scope, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [feedEventOfRow(scope, row, password)] : [];
  });
}

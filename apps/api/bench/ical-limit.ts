import { vtimezoneOf } from "@calendar/core";
import type { FastifyInstance } from "fastify";
import { ICalCalendar, ICalCalendarMethod, type ICalEventData, ICalEventStatus } from "ical-generator";
import { DateTime } from "luxon";
import type { LimitDriver } from "./limit.driver.ts";
import type { Dialect } from "./limit.statements.ts";

/** The API's feed cap (CALENDAR_ICAL_MAX_EVENTS' default). */
const MAX_EVENTS = 2_000;

interface Row {
  id: number;
  title: string;
  description: string;
  slug: string;
  status: string;
  allDay: boolean | number;
  timezone: string;
  startLocal: string;
  endLocal: string;
  startUtc: string;
  endUtc: string;
  postDateUtc: string;
  modifiedUtc: string;
  icalUid: string | null;
  sequence: number;
  image: string | null;
  venue: {
    name: string;
    address: string;
    zip: string;
    city: string;
    country: string;
    geoLat: number | null;
    geoLng: number | null;
  } | null;
  organizer: { name: string; email: string } | null;
  categories: Array<{ name: string }>;
}

/** A stored timestamp: SQLite keeps ISO text with its offset, PostgreSQL's JSON has none (UTC). */
function instant(stored: string): DateTime {
  return DateTime.fromJSDate(new Date(/(?:Z|[+-]\d\d:\d\d)$/.test(stored) ? stored : `${stored}Z`), { zone: "utc" });
}

/** A wall date (`YYYY-MM-DD …`) as the start of its day in UTC: what the library writes as `VALUE=DATE`. */
function day(wall: string, plusDays = 0): DateTime {
  return DateTime.fromISO(wall.slice(0, 10), { zone: "utc" }).plus({ days: plusDays });
}

const vtimezones = new Map<string, string | null>();

/** The feed's VTIMEZONE source (the zone's history in the window's years), built once per zone and years as it does. */
function vtimezoneCache(zone: string, span: { from: number; to: number }): string | null {
  const key = `${zone} ${span.from} ${span.to}`;
  const years = new Set(Array.from({ length: span.to - span.from + 1 }, (_, index) => span.from + index));
  if (!vtimezones.has(key)) vtimezones.set(key, vtimezoneOf(zone, years) ?? null);
  return vtimezones.get(key) ?? null;
}

/**
 * The feed's rows: the list's conditions for an anonymous caller (language, published, listed, the default window
 * with the end bound closing the start range as `buildEventWhere` writes it; the list's order; the cap), each
 * with what the feed writes of it (first venue and organizer by link position, category names, image URL,
 * iCalendar identity; a protected event's description left out as the API leaves it out for anonymous callers).
 */
function feedStatement(dialect: Dialect): string {
  const columns = [
    "id",
    "title",
    "slug",
    "status",
    "allDay",
    "timezone",
    "startLocal",
    "endLocal",
    "startUtc",
    "endUtc",
    "modifiedUtc",
    "postDateUtc",
    "icalUid",
    "sequence",
  ];
  const first = (table: string, link: string, column: string, fields: string[]) =>
    dialect.nested(
      `SELECT ${dialect.object(Object.fromEntries(fields.map((field) => [field, `p."${field}"`])))}
        FROM "${link}" l JOIN "${table}" p ON p."id" = l."${column}"
        WHERE l."eventId" = e."id" AND p."status" <> 'trash' ORDER BY l."position", l."${column}" LIMIT 1`,
    );
  const row = dialect.object({
    ...Object.fromEntries(columns.map((column) => [column, `e."${column}"`])),
    description: `CASE WHEN e."password" = '' THEN e."description" ELSE '' END`,
    image: `(SELECT i."url" FROM "Image" i WHERE i."id" = e."imageId")`,
    venue: first("Venue", "EventVenue", "venueId", ["name", "address", "zip", "city", "country", "geoLat", "geoLng"]),
    organizer: first("Organizer", "EventOrganizer", "organizerId", ["name", "email"]),
    categories: dialect.array(
      dialect.object({ name: `c."name"` }),
      `FROM "EventCategory" l JOIN "Category" c ON c."id" = l."categoryId" WHERE l."eventId" = e."id"`,
      `c."name"`,
    ),
  });
  const window = `FROM (SELECT * FROM "Event"
    WHERE "language" = 'en' AND "status" = 'publish' AND "hideFromListings" = ?
      AND "startUtc" >= ? AND "startUtc" <= ? AND "endUtc" <= ?
    ORDER BY "startUtc", "postDateUtc", "id" LIMIT ${MAX_EVENTS}) e`;
  return `SELECT ${dialect.text(dialect.array(row, window, 'e."startUtc", e."postDateUtc", e."id"'))} AS "body"`;
}

function eventOf(row: Row, now: Date): ICalEventData {
  const allDay = row.allDay === true || row.allDay === 1;
  const { venue, organizer } = row;
  const address = venue ? [venue.address, `${venue.zip} ${venue.city}`.trim(), venue.country].filter(Boolean) : [];
  return {
    id: row.icalUid ?? `event-${row.id}@limit`,
    sequence: row.sequence,
    stamp: now,
    created: instant(row.postDateUtc),
    lastModified: instant(row.modifiedUtc),
    ...(allDay
      ? { start: day(row.startLocal), end: day(row.endLocal, 1), allDay: true }
      : {
          start: instant(row.startUtc),
          end: instant(row.endUtc),
          timezone: row.timezone === "UTC" ? null : row.timezone,
        }),
    summary: row.title,
    // The limit leaves the HTML → text conversion out: the HTML is both forms.
    description: row.description.includes("<")
      ? { plain: row.description, html: row.description }
      : row.description || null,
    location: venue
      ? {
          title: venue.name,
          address: address.join(", "),
          ...(venue.geoLat !== null && venue.geoLng !== null ? { geo: { lat: venue.geoLat, lon: venue.geoLng } } : {}),
        }
      : null,
    organizer: organizer?.email ? { name: organizer.name, email: organizer.email } : null,
    categories: row.categories,
    url: `http://limit.invalid/event/${encodeURIComponent(row.slug)}/`,
    status: row.status === "publish" ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE,
    attachments: row.image ? [row.image] : [],
  };
}

/**
 * The limit of "events feed (ics)": the feed's events by one SQL statement, serialized with the library the API
 * uses (ical-generator, the same VTIMEZONE generator) into the same kind of feed, without what is the API's own
 * work: the HTML conversion, the redaction rules of linked records, the presentation of links and names.
 */
export function registerIcalLimit(server: FastifyInstance, driver: LimitDriver, dialect: Dialect): void {
  const sql = feedStatement(dialect);
  server.get("/cal/events/v1/events.ics", async (_request, reply) => {
    const now = new Date();
    // The default window of `GET /events` in the bench's site zone (UTC), computed as `listDateWindow` does.
    const today = DateTime.fromJSDate(now, { zone: "utc" });
    const from = today.minus({ days: 1 }).startOf("day").toJSDate();
    const until = today.plus({ months: 24 }).set({ hour: 23, minute: 59, second: 59, millisecond: 0 }).toJSDate();
    const rows = JSON.parse((await driver.body({ sql, params: [false, from, until, until] })) ?? "[]") as Row[];
    const span = { from: from.getUTCFullYear(), to: until.getUTCFullYear() };
    const calendar = new ICalCalendar({
      prodId: { company: "Calendar", product: "Calendar", language: "EN" },
      method: ICalCalendarMethod.PUBLISH,
      scale: "GREGORIAN",
      name: "Calendar (en)",
      ttl: 3_600,
      timezone: { name: null, generator: (zone) => vtimezoneCache(zone, span) },
    });
    calendar.x("X-WR-TIMEZONE", "UTC");
    for (const row of rows) calendar.createEvent(eventOf(row, now));
    reply.type("text/calendar; charset=utf-8");
    return `${calendar.toString()}\r\n`;
  });
}

import { vtimezoneOf } from "@calendar/core";
import type { FastifyInstance } from "fastify";
import { ICalCalendar, ICalCalendarMethod } from "ical-generator";
import { DateTime } from "luxon";
import type { LimitDriver } from "./limit.driver.ts";
import type { Dialect } from "./limit.statements.ts";

type Row = Record<string, unknown>;

/** The API's feed cap (CALENDAR_ICAL_MAX_EVENTS' default). */
const MAX_EVENTS = 2_000;

function instant(value: unknown): DateTime {
  return DateTime.fromJSDate(value instanceof Date ? value : new Date(`${String(value).replace(" ", "T")}Z`), {
    zone: "utc",
  });
}

const vtimezones = new Map<string, string | null>();

/** The feed's VTIMEZONE source (the zone's history in the window's years), built once per zone and span as it does. */
function vtimezoneCache(zone: string, span: { from: number; to: number }): string | null {
  const key = `${zone} ${span.from} ${span.to}`;
  if (!vtimezones.has(key)) vtimezones.set(key, vtimezoneOf(zone, span) ?? null);
  return vtimezones.get(key) ?? null;
}

/**
 * The limit of "events feed (ics)": the feed's events (the list's conditions for an anonymous caller: language,
 * published, listed, the default window with the end bound closing the start range as `buildEventWhere` writes
 * it; the list's order; the cap) by one SQL query, serialized with the library the API uses (ical-generator, the
 * same VTIMEZONE generator), without the related records, the HTML conversion or the presentation.
 */
export function registerIcalLimit(server: FastifyInstance, driver: LimitDriver, dialect: Dialect): void {
  const columns = ["id", "title", "description", "startUtc", "endUtc", "timezone", "modifiedUtc", "postDateUtc"];
  const row = dialect.object(Object.fromEntries(columns.map((column) => [column, `e."${column}"`])));
  const window = `FROM (SELECT * FROM "Event"
    WHERE "language" = 'en' AND "status" = 'publish' AND "hideFromListings" = ?
      AND "startUtc" >= ? AND "startUtc" <= ? AND "endUtc" <= ?
    ORDER BY "startUtc", "postDateUtc", "id" LIMIT ${MAX_EVENTS}) e`;
  const sql = `SELECT ${dialect.text(dialect.array(row, window, 'e."startUtc", e."postDateUtc", e."id"'))} AS "body"`;
  server.get("/cal/events/v1/events.ics", async (_request, reply) => {
    const now = new Date();
    // The default window of `GET /events` in the bench's site zone (UTC), computed as `listDateWindow` does.
    const today = DateTime.fromJSDate(now, { zone: "utc" });
    const from = today.minus({ days: 1 }).startOf("day").toJSDate();
    const until = today.plus({ months: 24 }).set({ hour: 23, minute: 59, second: 59, millisecond: 0 }).toJSDate();
    const rows = JSON.parse((await driver.body({ sql, params: [false, from, until, until] })) ?? "[]") as Row[];
    const span = { from: from.getUTCFullYear(), to: until.getUTCFullYear() };
    const calendar = new ICalCalendar({
      prodId: { company: "Calendar", product: "Calendar" },
      method: ICalCalendarMethod.PUBLISH,
      name: "Calendar (en)",
      ttl: 3_600,
      timezone: { name: null, generator: (zone) => vtimezoneCache(zone, span) },
    });
    for (const row of rows) {
      calendar.createEvent({
        id: `event-${String(row.id)}@limit`,
        stamp: now,
        created: instant(row.postDateUtc),
        lastModified: instant(row.modifiedUtc),
        start: instant(row.startUtc),
        end: instant(row.endUtc),
        timezone: row.timezone === "UTC" ? null : String(row.timezone),
        summary: String(row.title),
        description: String(row.description),
      });
    }
    reply.type("text/calendar; charset=utf-8");
    return calendar.toString();
  });
}

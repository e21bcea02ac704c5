import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.ts";
import { trpcFailure } from "../support/errors.ts";
import { useTestServer } from "../support/server.ts";

/**
 * What one iCalendar file may write is capped (CALENDAR_IMPORT_MAX_EVENTS, CALENDAR_IMPORT_MAX_SERIES: a 413 beyond,
 * with nothing written), and the file is written in batches that leave the database to other requests between
 * them. Before, 40 series of `FREQ=HOURLY;COUNT=500` in a 5 KB file wrote 20,000 events in one transaction while
 * every other writer waited.
 */

function vevent(uid: string, day: number, rule?: string): string[] {
  const date = `203103${String(day).padStart(2, "0")}`;
  return [
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20300101T000000Z",
    `DTSTART:${date}T100000Z`,
    `DTEND:${date}T110000Z`,
    ...(rule ? [`RRULE:${rule}`] : []),
    `SUMMARY:Imported ${uid}`,
    "END:VEVENT",
  ];
}

function calendarOf(events: string[][]): string {
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", ...events.flat(), "END:VCALENDAR", ""].join("\r\n");
}

const range = (count: number) => Array.from({ length: count }, (_, index) => index);
/** `count` series of `FREQ=HOURLY;COUNT=<occurrences>`. */
const hourlySeries = (count: number, occurrences: number) =>
  calendarOf(
    range(count).map((index) => vevent(`series-${index}@test`, 1 + (index % 28), `FREQ=HOURLY;COUNT=${occurrences}`)),
  );
/** `count` single events. */
const singleEvents = (count: number, prefix = "single") =>
  calendarOf(range(count).map((index) => vevent(`${prefix}-${index}@test`, 1 + (index % 28))));

const TOO_MANY = (count: number, limit: number, what: string) => ({
  code: "rest_import_too_large",
  message: `The file would import at least ${count} ${what}; one import takes at most ${limit}. Split the file, or import a shorter horizon_months.`,
  data: { status: 413, count, limit },
});

describe.each(PROVIDERS)("iCalendar import caps (%s)", (provider) => {
  const server = useTestServer(provider, {
    site: { timezone: "UTC", importCaps: { eventsPerFile: 60, seriesPerFile: 3 } },
  });
  const post = (text: string, query: Record<string, string> = {}) =>
    server.fail("POST /import", 413, { as: server.users.editor, body: text, contentType: "text/calendar", query });

  it.each([
    ["more events than CALENDAR_IMPORT_MAX_EVENTS", singleEvents(61), TOO_MANY(61, 60, "events")],
    ["more recurring series than CALENDAR_IMPORT_MAX_SERIES", hourlySeries(4, 2), TOO_MANY(4, 3, "recurring series")],
    ["series whose occurrences pass the events cap", hourlySeries(2, 31), TOO_MANY(62, 60, "events")],
  ])("refuses a file with %s with a 413, writing nothing, dry run and tRPC alike", async (_, text, expected) => {
    expect((await post(text)).body).toEqual(expected);
    expect((await post(text, { dry_run: "true" })).body).toEqual(expected);
    const failure = await trpcFailure(server.client(server.users.editor).import.calendar.mutate({ calendar: text }));
    expect([failure.status, failure.code, failure.message]).toEqual([413, expected.code, expected.message]);
    expect(await server.db.event.count()).toBe(0);
  });

  it("imports a file exactly at the caps", async () => {
    const text = calendarOf([
      ...range(3).map((index) => vevent(`at-cap-series-${index}@test`, 2, "FREQ=DAILY;COUNT=10")),
      ...range(30).map((index) => vevent(`at-cap-single-${index}@test`, 3)),
    ]);
    const imported = await server.call("POST /import", {
      as: server.users.editor,
      body: text,
      contentType: "text/calendar",
    });
    expect([imported.body.created.length, imported.body.series, imported.body.skipped]).toEqual([60, 3, []]);
    expect(await server.db.event.count()).toBe(60);
  });
});

describe.each(PROVIDERS)("iCalendar import batches (%s)", (provider) => {
  const server = useTestServer(provider);
  const WINDOW = { start_date: "2031-03-01", end_date: "2031-04-01", per_page: 1 };

  it("refuses the 5 KB file of 40 hourly series of 500 events by default", async () => {
    const text = hourlySeries(40, 500);
    expect(Buffer.byteLength(text)).toBeLessThan(10_000);
    const refused = await server.fail("POST /import", 413, {
      as: server.users.editor,
      body: text,
      contentType: "text/calendar",
    });
    // Refused as soon as the series read pass the cap: the fifth series makes 2,500.
    expect(refused.body).toEqual(TOO_MANY(2_500, 2_000, "events"));
    expect(await server.db.event.count()).toBe(0);
  });

  it("commits a file in batches: other requests read its first events and write while it still runs", async () => {
    const administrator = server.users.administrator;
    let importing = true;
    const imported = server
      .call("POST /import", { as: server.users.editor, body: singleEvents(250, "batch"), contentType: "text/calendar" })
      .finally(() => {
        importing = false;
      });
    let seenWhileImporting = 0;
    let writtenWhileImporting = false;
    while (importing) {
      const listed = await server.call("GET /events", { as: administrator, query: WINDOW });
      if (listed.body.total > 0 && importing) {
        seenWhileImporting = listed.body.total;
        const other = { title: "Written meanwhile", start_date: "2031-05-01 10:00", end_date: "2031-05-01 11:00" };
        await server.call("POST /events", { as: administrator, body: other, status: 201 });
        writtenWhileImporting = importing;
        break;
      }
      await sleep(10);
    }
    expect((await imported).body.created).toHaveLength(250);
    expect(seenWhileImporting).toBeGreaterThan(0);
    expect(seenWhileImporting).toBeLessThan(250);
    expect(writtenWhileImporting).toBe(true);
    expect(await server.db.event.count()).toBe(251);
  });

  it("completes an interrupted import when the file is imported again", async () => {
    const text = singleEvents(120, "again");
    const first = await server.call("POST /import", {
      as: server.users.editor,
      body: text,
      contentType: "text/calendar",
    });
    const ids = first.body.created;
    // As if the import had stopped after its first batch: the later events were never written.
    await server.db.event.deleteMany({ where: { id: { in: ids.slice(50) } } });
    const again = await server.call("POST /import", {
      as: server.users.editor,
      body: text,
      contentType: "text/calendar",
    });
    expect([again.body.created.length, again.body.unchanged, again.body.updated]).toEqual([70, 50, []]);
    expect(await server.db.event.count({ where: { icalUid: { startsWith: "again-" } } })).toBe(120);
  });
});

describe.each(PROVIDERS)("iCalendar import caps on `calendar import` (%s)", (provider) => {
  const database = useTestDatabase(provider);

  it("refuses a file over CALENDAR_IMPORT_MAX_SERIES with the error, writing nothing", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "calendar-import-")), "series.ics");
    writeFileSync(path, hourlySeries(2, 2));
    const program = createProgram(
      { out: () => undefined, err: () => undefined },
      { DATABASE_URL: database.current.url, CALENDAR_TIMEZONE: "UTC", CALENDAR_IMPORT_MAX_SERIES: "1" },
    );
    const expected = TOO_MANY(2, 1, "recurring series");
    await expect(program.parseAsync(["import", path], { from: "user" })).rejects.toMatchObject({
      code: expected.code,
      status: 413,
      message: expected.message,
    });
    expect(await database.current.handle.db.event.count()).toBe(0);
  });
});

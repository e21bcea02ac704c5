import { readFileSync } from "node:fs";
import type { RouterOutputs } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { trpcFailure } from "../support/errors.ts";
import { first, itemAt } from "../support/narrow.ts";
import { useTestServer } from "../support/server.ts";

const file = (name: string) => readFileSync(new URL(`./files/${name}`, import.meta.url), "utf8");

type ListedEvent = RouterOutputs["events"]["list"]["events"][number];

describe.each(PROVIDERS)("iCalendar import (%s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "Europe/Berlin" } });
  const empty = useTestServer(provider, { site: { timezone: "Europe/Berlin" } });
  /** An import that must be answered 200: the ids it created and updated, and what it skipped or left alone. */
  const post = (text: string, query: Record<string, string> = {}, as = server.users.editor) =>
    server.call("POST /import", { as, body: text, contentType: "text/calendar", query, status: 200 });
  const asAdministrator = () => ({ as: server.users.administrator });
  const event = async (id: number) =>
    (await server.call("GET /events/{id}", { params: { id }, ...asAdministrator() })).body;
  const total = async () =>
    (
      await server.call("GET /events", {
        query: { start_date: "2000-01-01", end_date: "2100-01-01" },
        ...asAdministrator(),
      })
    ).body.total;

  it("imports a Google Calendar weekly series with an exception and an EXDATE, idempotently", async () => {
    const imported = await post(file("google-weekly.ics"));
    expect(imported.status).toBe(200);
    expect([
      imported.body.created.length,
      imported.body.updated,
      imported.body.unchanged,
      imported.body.skipped,
      imported.body.series,
    ]).toEqual([5, [], 0, [], 1]);
    const occurrences = await Promise.all(imported.body.created.map(event));
    expect(occurrences.map((item) => [item.title, item.start_date, item.utc_start_date, item.timezone])).toEqual(
      [
        ["Chorprobe", "2030-03-12 19:00:00", "2030-03-12 18:00:00", "Europe/Berlin"],
        ["Chorprobe", "2030-03-19 19:00:00", "2030-03-19 18:00:00", "Europe/Berlin"],
        ["Chorprobe", "2030-04-02 20:00:00", "2030-04-02 18:00:00", "Europe/Berlin"],
        ["Chorprobe", "2030-04-09 19:00:00", "2030-04-09 17:00:00", "Europe/Berlin"],
        ["Chorprobe", "2030-04-16 19:00:00", "2030-04-16 17:00:00", "Europe/Berlin"],
      ].map(([title, ...rest], index) => [index === 2 ? "Chorprobe (später)" : title, ...rest]),
    );
    const parent = first(imported.body.created);
    expect(occurrences.map((item) => item.post_parent)).toEqual([0, parent, parent, parent, parent]);
    const [series] = occurrences;
    expect(series?.venue).toMatchObject({ venue: "Gemeindehaus, Hauptstraße 5, 04109 Leipzig, Deutschland" });
    expect(series?.description).toBe("Wöchentliche Probe, bitte Noten mitbringen.");

    const again = await post(file("google-weekly.ics"));
    expect(again.body).toEqual({ created: [], updated: [], unchanged: 5, skipped: [], series: 1 });

    const newer = file("google-weekly.ics")
      .replace(
        "SEQUENCE:0\r\nSTATUS:CONFIRMED\r\nSUMMARY:Chorprobe\r\n",
        "SEQUENCE:1\r\nSTATUS:CONFIRMED\r\nSUMMARY:Chorprobe neu\r\n",
      )
      .replace("COUNT=6", "COUNT=5");
    const updated = await post(newer);
    expect([updated.body.created, updated.body.unchanged]).toEqual([[], 0]);
    expect([...updated.body.updated].sort((a, b) => a - b)).toEqual(imported.body.created);
    expect((await event(itemAt(imported.body.created, 1))).title).toBe("Chorprobe neu");
    const trashed = async (id: number) =>
      (await server.fail("GET /events/{id}", 403, { params: { id }, ...asAdministrator() })).body.code;
    // The occurrence COUNT=5 drops was only ever a copy of the series: it is deleted, not trashed (issue 32).
    const dropped = itemAt(imported.body.created, 4);
    await server.fail("GET /events/{id}", 404, { params: { id: dropped }, ...asAdministrator() });

    const cancelled = await post(newer.replace("SEQUENCE:1\r\nSTATUS:CONFIRMED", "SEQUENCE:2\r\nSTATUS:CANCELLED"));
    expect(cancelled.body.updated).toHaveLength(4);
    expect(await trashed(parent)).toBe("event-no-longer-available");
  });

  it("reads Outlook's Windows zone names and organizers", async () => {
    const response = await post(file("outlook.ics"));
    expect([response.status, response.body.created.length, response.body.skipped]).toEqual([200, 1, []]);
    const item = await event(first(response.body.created));
    expect([item.title, item.timezone, item.start_date, item.utc_start_date, item.utc_end_date]).toEqual([
      "Quartalsbesprechung",
      "Europe/Berlin",
      "2030-07-15 09:00:00",
      "2030-07-15 07:00:00",
      "2030-07-15 08:30:00",
    ]);
    expect(first(item.organizer)).toMatchObject({ organizer: "Ada Lovelace", email: "ada@example.org" });
    expect(item.venue).toMatchObject({ venue: "Konferenzraum 3" });
  });

  it("keeps the file's SEQUENCE, and exports a higher one after an update here", async () => {
    const text = file("outlook.ics").replace("A1B2C3D4E5F6@outlook", "SEQ@outlook").replace("SEQUENCE:0", "SEQUENCE:7");
    const id = first((await post(text)).body.created);
    const exported = async () => {
      const ics = (await server.rest("GET", `/cal/events/v1/events/${id}.ics`)).text;
      return /\r\nSEQUENCE:(\d+)\r\n/.exec(ics)?.[1];
    };
    expect(await exported()).toBe("7");
    const as = server.users.editor;
    await server.call("PATCH /events/{id}", { params: { id }, as, body: { title: "Quartalsbesprechung Q3" } });
    expect(await exported()).toBe("8");
    const newer = await post(text.replace("SEQUENCE:7", "SEQUENCE:9"));
    expect(newer.body.updated).toEqual([id]);
    expect(await exported()).toBe("9");
  });

  it("reads Apple's floating all-day and floating timed events in the site's zone", async () => {
    const response = await post(file("apple.ics"));
    expect([response.status, response.body.created.length]).toEqual([200, 2]);
    const [fest, breakfast] = await Promise.all(response.body.created.map(event));
    expect([fest?.all_day, fest?.start_date, fest?.end_date]).toEqual([
      true,
      "2030-08-01 00:00:00",
      "2030-08-03 23:59:59",
    ]);
    expect(fest?.categories.map((category) => category.name).sort()).toEqual(["Draußen", "Feste"]);
    expect([breakfast?.timezone, breakfast?.utc_start_date]).toEqual(["Europe/Berlin", "2030-08-02 08:00:00"]);
  });

  it("skips events it cannot read with their reasons and imports the rest", async () => {
    const response = await post(file("errors.ics"));
    expect(response.status).toBe(200);
    expect(response.body.created).toHaveLength(1);
    expect(response.body.skipped.map((skip) => skip.uid).sort()).toEqual([
      "backwards@test",
      "no-summary@test",
      "unknown-zone@test",
    ]);
    expect(response.body.skipped.find((skip) => skip.uid === "unknown-zone@test")?.reason).toBe(
      'Unknown time zone "Mars/Olympus_Mons" (no VTIMEZONE defines it).',
    );
  });

  it("answers a malformed file with 400 naming the line, and writes nothing", async () => {
    const before = await total();
    const response = await server.fail("POST /import", 400, {
      as: server.users.editor,
      body: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nthis is not a line\r\nEND:VCALENDAR\r\n",
      contentType: "text/calendar",
    });
    expect([response.body.code, response.body.data.line]).toEqual(["rest_invalid_icalendar", 3]);
    expect(await total()).toBe(before);
  });

  it("answers a dry run without writing", async () => {
    const text = file("outlook.ics").replace("A1B2C3D4E5F6@outlook", "DRYRUN@outlook");
    const dry = await post(text, { dry_run: "true" });
    expect([dry.status, dry.body.created.length]).toEqual([200, 1]);
    const real = await post(text);
    expect(real.body.created).toHaveLength(1);
  });

  it("lets only editors and administrators import", async () => {
    const text = file("outlook.ics");
    const calendar = { body: text, contentType: "text/calendar" };
    const anonymous = await server.fail("POST /import", 401, calendar);
    const author = await server.fail("POST /import", 403, { ...calendar, as: server.users.author });
    expect([anonymous.body.code, author.body.code]).toEqual(["rest_forbidden", "rest_forbidden"]);
    const json = await server.fail("POST /import", 415, { as: server.users.editor, body: { a: 1 } });
    expect(json.body.code).toBe("rest_unsupported_media_type");
  });

  it("imports through tRPC (import.calendar) as through REST, dry runs and roles included", async () => {
    const text = file("outlook.ics").replace("A1B2C3D4E5F6@outlook", "TRPC@outlook");
    const editor = server.client(server.users.editor);
    const dry = await editor.import.calendar.mutate({ calendar: text, dry_run: true });
    expect([dry.created.length, dry.updated, dry.unchanged, dry.skipped, dry.series]).toEqual([1, [], 0, [], 0]);
    const created = await editor.import.calendar.mutate({ calendar: text, ml_language: "de" });
    expect(created.created).toHaveLength(1);
    const id = first(created.created);
    const item = await event(id);
    expect([item.title, item.utc_start_date]).toEqual(["Quartalsbesprechung", "2030-07-15 07:00:00"]);
    const german = await server.call("GET /events/{id}", { base: "/de/cal/events/v1", params: { id }, status: 200 });
    expect(german.body.title).toBe("Quartalsbesprechung");
    expect(await editor.import.calendar.mutate({ calendar: text, ml_language: "de" })).toEqual({
      created: [],
      updated: [],
      unchanged: 1,
      skipped: [],
      series: 0,
    });
    const failure = async (call: Promise<unknown>) => {
      const { status, code } = await trpcFailure(call);
      return [status, code];
    };
    const failures = await Promise.all([
      failure(server.client().import.calendar.mutate({ calendar: text })),
      failure(server.client(server.users.author).import.calendar.mutate({ calendar: text })),
      failure(editor.import.calendar.mutate({ calendar: "BEGIN:VCALENDAR\r\nnot a line\r\nEND:VCALENDAR\r\n" })),
    ]);
    expect(failures).toEqual([
      [401, "rest_forbidden"],
      [403, "rest_forbidden"],
      [400, "rest_invalid_icalendar"],
    ]);
  });

  it("imports what it exports into an empty calendar as the same events", async () => {
    const window = { start_date: "2030-01-01", end_date: "2030-12-31" };
    const feed = await server.rest("GET", "/cal/events/v1/events.ics", { query: window });
    const imported = await empty.call("POST /import", {
      as: empty.users.administrator,
      body: feed.text,
      contentType: "text/calendar",
      status: 200,
    });
    expect([imported.status, imported.body.skipped]).toEqual([200, []]);
    const shape = (events: ListedEvent[]) =>
      events.map((item) => ({
        title: item.title,
        start: item.utc_start_date,
        end: item.utc_end_date,
        allDay: item.all_day,
        venue: Array.isArray(item.venue) ? undefined : item.venue.venue,
        organizers: item.organizer.map((organizer) => organizer.organizer),
        categories: item.categories.map((category) => category.name).sort(),
      }));
    const original = await server.call("GET /events", { query: { ...window, per_page: 50 } });
    const copy = await empty.call("GET /events", { query: { ...window, per_page: 50 } });
    expect(copy.body.total).toBeGreaterThan(0);
    expect(shape(copy.body.events)).toEqual(shape(original.body.events));
  });
});

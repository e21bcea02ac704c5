import { create, PROVIDERS } from "@calendar/core/testing";
import ICAL from "ical.js";
import { DateTime } from "luxon";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, EVENTS, eventsOf } from "../events/support.ts";
import { useTestServer } from "../support/server.ts";
import { expectNoStall } from "../support/stall.ts";
import { parseCalendar, veventsOf } from "./ical.support.ts";

const MiB = 1 << 20;
const fill = (unit: string) => unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);
const WINDOW = "start_date=2031-01-01&end_date=2031-12-31";

/** Descriptions that overflowed html-to-text's recursive walk or kept it busy for seconds. */
const HOSTILE_DESCRIPTIONS: Record<string, string> = {
  "nested <div>": fill("<div>"),
  "a run of <a": fill("<a"),
  entities: fill("&amp;&#x41;&lt;&nbsp;&bogus;"),
  "unclosed tags": fill("<b"),
};

/** The feeds an event is in, each as the path a subscriber polls (and its headers). */
const FEEDS: Array<{ name: string; path: string; headers: Record<string, string> }> = [
  { name: "events.ics", path: `${BASE}/events.ics?${WINDOW}`, headers: {} },
  { name: "the /wp-json feed", path: `/wp-json/tribe/events/v1/events.ics?${WINDOW}`, headers: {} },
  { name: "Accept: text/calendar", path: `${EVENTS}?${WINDOW}`, headers: { accept: "text/calendar" } },
];

describe.each(PROVIDERS)("feeds of events with hostile descriptions (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const ids: number[] = [];

  beforeAll(async () => {
    for (const [index, description] of Object.values(HOSTILE_DESCRIPTIONS).entries()) {
      const { id } = await events.create(
        {
          title: `Hostile ${index}`,
          status: "publish",
          start_date: `2031-05-0${index + 1} 19:00:00`,
          end_date: `2031-05-0${index + 1} 21:00:00`,
          timezone: "Europe/Berlin",
        },
        server.users.author,
      );
      // Stored as it may already be, whatever a write accepts now.
      await server.db.event.update({ where: { id }, data: { description } });
      ids.push(id);
    }
    // The renderer's modules are loaded at the first feed (once per process, not per request).
    await server.rest("GET", `${BASE}/events.ics?start_date=2040-01-01&end_date=2040-01-02`);
  });

  it.each(FEEDS)("$name answers every event at once and does not stall the server", async ({ path, headers }) => {
    const { answer, requestMs } = await expectNoStall(server.origin, () => server.rest("GET", path, { headers }));
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/calendar");
    const uids = [...answer.text.matchAll(/^UID:event-(\d+)@/gm)].map((match) => Number(match[1]));
    expect(uids.sort((a, b) => a - b)).toEqual(ids);
    expect(answer.text.match(/^X-ALT-DESC;FMTTYPE=text\/html:/gm)).toHaveLength(ids.length);
    expect(requestMs).toBeLessThan(5_000);
  });

  it("each event's own .ics answers at once and does not stall the server", async () => {
    for (const id of ids) {
      const { answer } = await expectNoStall(server.origin, () => server.rest("GET", `${EVENTS}/${id}.ics`));
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      expect(answer.text).toContain(`UID:event-${id}@`);
    }
    const entities = ids[Object.keys(HOSTILE_DESCRIPTIONS).indexOf("entities")];
    const { text } = await server.rest("GET", `${EVENTS}/${entities}.ics`);
    const description = text.replace(/\r\n[ \t]/g, "").match(/^DESCRIPTION:(.*)$/m)?.[1] ?? "";
    expect(description.startsWith("&A<\u00a0&bogus\\;&A<")).toBe(true);
  });
});

/** What a feed of 100 events with 1 MiB descriptions may weigh: 4,096 characters of each, as HTML and plain text. */
const MAX_LONG_FEED_BYTES = 2 * MiB;

describe.each(PROVIDERS)("a feed of 100 events with 1 MiB descriptions (%s)", (provider) => {
  const server = useTestServer(provider);

  it("is bounded in bytes and does not stall the server; the event's own .ics stays whole", async () => {
    const description = `<p>${"Programme notes. ".repeat(MiB / 17)}</p>`;
    const ids: number[] = [];
    for (let index = 0; index < 100; index++) {
      ids.push((await create.event(server.db, { title: `Long ${index}`, description, status: "publish" })).id);
    }
    await server.rest("GET", `${BASE}/events.ics?start_date=2040-01-01&end_date=2040-01-02`);
    // It was 218 MB, 9 s, /healthz held up 1 s on SQLite.
    const { answer } = await expectNoStall(server.origin, () =>
      server.rest("GET", `${BASE}/events.ics?start_date=2000-01-01&end_date=2099-12-31`),
    );
    expect(answer.status).toBe(200);
    expect(answer.text.match(/^BEGIN:VEVENT/gm)).toHaveLength(100);
    expect(Buffer.byteLength(answer.text)).toBeLessThan(MAX_LONG_FEED_BYTES);
    const own = await server.rest("GET", `${EVENTS}/${ids[0]}.ics`);
    expect(own.text.replace(/\r\n[ \t]/g, "").match(/^X-ALT-DESC;FMTTYPE=text\/html:(.*)$/m)?.[1]).toBe(description);
  }, 120_000);
});

/** The most a feed's VTIMEZONE may weigh here: a few years before 2101 with three observances each, three after. */
const MAX_VTIMEZONE_BYTES = 4_000;
const ZONE = "Europe/Berlin";
const EVERY_YEAR = "start_date=2026-01-01&end_date=9999-12-31";

/** ical.js' instant (using the feed's VTIMEZONE) of a wall time, and luxon's (the tz database). */
function instants(time: ICAL.Time) {
  const wall = { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute };
  return { ical: time.toUnixTime(), luxon: DateTime.fromObject(wall, { zone: ZONE }).toSeconds() };
}

describe.each(PROVIDERS)("feeds of events in far years (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  let seriesTitle = "";

  beforeAll(async () => {
    const { id } = await events.create(
      {
        title: "Until the end of time",
        status: "publish",
        start_date: "2026-06-01 19:00:00",
        end_date: "2026-06-01 21:00:00",
        timezone: ZONE,
      },
      server.users.author,
    );
    // Stored as it may already be, whatever a write accepts now: it ends on the last day iCalendar can write.
    await server.db.event.update({
      where: { id },
      data: { endLocal: "9999-12-31 20:00:00", endUtc: new Date("9999-12-31T19:00:00Z") },
    });
    seriesTitle = "Every thousand weeks";
    await events.create({
      title: seriesTitle,
      status: "publish",
      start_date: "2026-06-03 19:00:00",
      end_date: "2026-06-03 20:00:00",
      timezone: ZONE,
      // Five dates 19 years apart (COUNT=400, 7,600 years, is a 400 now: a series spans at most 100 years).
      recurrence: ["RRULE:FREQ=WEEKLY;INTERVAL=1000;COUNT=5"],
    });
    // The series alone first: ical.js steps a weekly rule's INTERVAL one day at a time (the feed keeps the starts),
    // which is not the VTIMEZONE's work under test. The feeds below add the year 9999, so their VTIMEZONE is made anew.
    const alone = await server.rest(
      "GET",
      `${BASE}/events.ics?${EVERY_YEAR}&search=${encodeURIComponent(seriesTitle)}`,
    );
    expect(alone.text.match(/^BEGIN:VEVENT/gm)).toHaveLength(1);
  }, 120_000);

  it.each([
    ["the feed", `${BASE}/events.ics?${EVERY_YEAR}`],
    ["the anonymous /wp-json feed", `/wp-json/tribe/events/v1/events.ics?${EVERY_YEAR}`],
  ])("%s answers at once with a small VTIMEZONE that converts the far years' times", async (_name, path) => {
    const { answer } = await expectNoStall(server.origin, () => server.rest("GET", path));
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const zones = answer.text.match(/BEGIN:VTIMEZONE[\s\S]*?END:VTIMEZONE\r\n/g) ?? [];
    expect(zones).toHaveLength(1);
    expect(zones[0]?.length).toBeLessThan(MAX_VTIMEZONE_BYTES);

    const calendar = parseCalendar(answer.text);
    ICAL.TimezoneService.register(calendar.getFirstSubcomponent("vtimezone") as ICAL.Component);
    const vevents = veventsOf(calendar).map((component) => new ICAL.Event(component));
    const long = vevents.find((event) => event.summary === "Until the end of time");
    const series = vevents.find((event) => event.summary === seriesTitle);
    if (!long || !series) throw new Error("Both events are in the feed.");
    // The year 9999 first: ical.js expands a zone's rules up to the latest year asked for.
    expect(long.endDate.year).toBe(9999);
    expect(instants(long.endDate)).toEqual({
      ical: Date.UTC(9999, 11, 31, 19) / 1000,
      luxon: Date.UTC(9999, 11, 31, 19) / 1000,
    });
    expect(instants(long.startDate).ical).toBe(Date.UTC(2026, 5, 1, 17) / 1000);

    const iterator = series.iterator();
    const starts: ICAL.Time[] = [];
    for (let next = iterator.next(); next && starts.length < 500; next = iterator.next()) starts.push(next);
    expect(starts.map((start) => start.year)).toEqual([2026, 2045, 2064, 2083, 2103]);
    // Summer and winter time, before and after 2101 (from where the VTIMEZONE repeats the zone's last rule).
    expect(starts.map((start) => start.month)).toEqual([6, 8, 10, 12, 1]);
    for (const start of starts) {
      const { ical, luxon } = instants(start);
      expect(ical, start.toString()).toBe(luxon);
    }
  });
});

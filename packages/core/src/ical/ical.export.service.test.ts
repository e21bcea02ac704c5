import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles.ts";
import { eventListQuery } from "../events/event.schemas.ts";
import { DEFAULT_SERIES_LIMITS } from "../series/series.limits.ts";
import {
  createTestActors,
  FIXTURE_PASSWORD,
  PROVIDERS,
  serviceWriters,
  type TestActors,
  testScope,
  useTestDatabase,
} from "../testing/index.ts";
import { eventFeed, eventUid, listedFeedEvents } from "./ical.export.service.ts";
import { renderCalendar } from "./ical.feed.render.ts";
import { feedEntriesOf } from "./ical.feed.series.ts";

/**
 * A feed of more events than one page (100): written a page at a time, it is byte for byte the feed rendered as
 * one string from the list's presented events, series and VTIMEZONEs included.
 */

const OPTIONS = { maxEvents: 1_000, siteName: "Calendar", publicHost: "feed.test" };
const HEADER = { name: "Calendar (en)", language: "en", timezone: "UTC", refreshSeconds: 3_600 };
const ZONES = ["UTC", "Europe/Berlin", "Asia/Kolkata", "America/New_York"];
const QUERY = eventListQuery.parse({ start_date: "2031-01-01", end_date: "2031-12-31" });

const withoutStamps = (text: string) => text.replace(/^DTSTAMP:.*\r\n/gm, "");
const vevents = (text: string) => text.split("BEGIN:VEVENT").length - 1;

/** The day `index` days after 2031-01-01, as `YYYY-MM-DD`. */
function dayOf(index: number): string {
  return new Date(Date.UTC(2031, 0, 1 + index)).toISOString().slice(0, 10);
}

describe.each(PROVIDERS)("the feed written a page at a time (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let actors: TestActors<"editor" | "subscriber">;
  const scope = (actor: Actor) => testScope(database.current, actor);

  beforeAll(async () => {
    actors = await createTestActors(database.current.handle.db, "paged-feed", ["editor", "subscriber"]);
    const { event } = serviceWriters(scope);
    const { editor } = actors;
    await event(editor, {
      title: "Weekly series",
      start_date: "2031-01-06 18:00:00",
      end_date: "2031-01-06 19:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=40"],
    });
    for (let index = 0; index < 230; index += 1) {
      const day = dayOf(index);
      const allDay = index % 7 === 3;
      await event(editor, {
        title: `Event ${index}`,
        ...(index % 5 === 0 ? { description: `<p>Night <em>${index}</em></p>` } : {}),
        all_day: allDay,
        start_date: allDay ? day : `${day} 20:00:00`,
        end_date: allDay ? day : `${day} 22:00:00`,
        timezone: ZONES[index % ZONES.length],
        ...(index % 50 === 7 ? { password: FIXTURE_PASSWORD } : {}),
      });
    }
  }, 120_000);

  it.each(["editor", "subscriber"] as const)("is the one-string rendering, for the %s", async (name) => {
    const reader = scope(actors[name]);
    const chunks: string[] = [];
    for await (const chunk of await eventFeed(reader, QUERY, OPTIONS)) chunks.push(chunk);

    const events = await listedFeedEvents(reader, QUERY, OPTIONS.maxEvents);
    const rows = await reader.db.eventSeries.findMany();
    const { entries, years } = feedEntriesOf(
      events,
      new Map(rows.map((row) => [row.id, row])),
      DEFAULT_SERIES_LIMITS,
      (event) => eventUid(event, OPTIONS.publicHost),
    );
    const expected = renderCalendar(HEADER, entries, years);

    expect(withoutStamps(chunks.join(""))).toBe(withoutStamps(expected));
    expect(vevents(expected)).toBeGreaterThan(200);
    expect(expected).toContain("BEGIN:VTIMEZONE");
    expect(expected).toContain("RRULE:FREQ=WEEKLY");
    // The header, a page of VEVENTs at a time, the footer.
    const pages = chunks.slice(1, -1).map(vevents);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.every((count) => count >= 1 && count <= 100)).toBe(true);
    expect([vevents(chunks[0] ?? ""), vevents(chunks.at(-1) ?? "")]).toEqual([0, 0]);
  });
});

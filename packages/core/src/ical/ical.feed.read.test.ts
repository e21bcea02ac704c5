import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles.ts";
import { deleteEvent } from "../events/event.delete.service.ts";
import { listSelectionOf } from "../events/event.list.service.ts";
import { type EventListQuery, eventListQuery } from "../events/event.schemas.ts";
import type { Scope } from "../scope.ts";
import { DEFAULT_SERIES_LIMITS } from "../series/series.limits.ts";
import type { Language } from "../shared/language.ts";
import {
  create,
  createTestActors,
  FIXTURE_PASSWORD,
  outcomeOf,
  PROVIDERS,
  serviceWriters,
  type TestActors,
  testScope,
  useTestDatabase,
} from "../testing/index.ts";
import { deleteVenue } from "../venues/venue.service.ts";
import { eventUid, listedFeedEvents } from "./ical.export.service.ts";
import { readFeedEventsById, readFeedOutline } from "./ical.feed.read.ts";
import { renderCalendar } from "./ical.feed.render.ts";
import { feedEntriesOf } from "./ical.feed.series.ts";
import type { FeedEvent } from "./ical.feed.ts";

/** The feed's events as its two statements read them, all at once (the feed reads them a page at a time). */
async function selectFeedEvents(scope: Scope, query: EventListQuery, maxEvents: number): Promise<FeedEvent[]> {
  const { filter } = await listSelectionOf(scope, query);
  const outline = await readFeedOutline(scope, filter, maxEvents, query.password);
  return readFeedEventsById(
    scope,
    outline.map((row) => row.id),
    query.password,
  );
}

/**
 * The feed's own statement against the way the feed was built before it (`GET /events`' page of presented events,
 * then their iCalendar identity): for every reader and a range of queries, the same feed, byte for byte.
 */

const READERS = ["administrator", "editor", "author", "subscriber"] as const;
const HEADER = { name: "Calendar (en)", language: "en", timezone: "UTC", refreshSeconds: 3_600 };
const NOW = new Date("2030-01-01T00:00:00Z");

/** The fixture holds no series: each event is its own VEVENT. */
const entriesOf = (events: readonly FeedEvent[]) =>
  feedEntriesOf(events, new Map(), DEFAULT_SERIES_LIMITS, (event) => eventUid(event, "feed.test")).entries;

describe.each(PROVIDERS)("the feed's one-statement read (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let actors: TestActors<(typeof READERS)[number]>;
  const scope = (actor: Actor, language: Language = "en"): Scope => testScope(database.current, actor, language);

  beforeAll(async () => {
    const { db } = database.current.handle;
    actors = await createTestActors(db, "feed", READERS);
    const { editor, author } = actors;
    const { venue, organizer, event } = serviceWriters(scope);

    const hall = await venue(editor, {
      venue: "Philharmonie",
      address: "Herbert-von-Karajan-Straße 1",
      city: "Berlin",
      country: "Germany",
      zip: "10785",
      geo_lat: 52.51,
      geo_lng: 13.37,
    });
    const secretPlace = await venue(author, { venue: "Secret place", password: FIXTURE_PASSWORD, address: "Hidden 1" });
    const goneVenue = await venue(editor, { venue: "Gone venue", city: "Nowhere" });
    const club = await organizer(editor, { organizer: "Jazz Club", email: "club@example.test" });
    const secretClub = await organizer(author, {
      organizer: "Secret club",
      password: FIXTURE_PASSWORD,
      email: "s@x.test",
    });
    const quietClub = await organizer(editor, { organizer: "Quiet club" });
    const musicId = (await create.category(db, { name: "Music", translationGroup: "g-m" })).id;

    const main = await event(editor, {
      title: "A <em>grand</em> night; with, commas",
      description: '<p>Music &amp; more, <a href="https://example.test/x">programme</a></p>',
      timezone: "Europe/Berlin",
      image: "https://images.test/night.webp",
      venue: [goneVenue.id, secretPlace.id, hall.id],
      organizer: [secretClub.id, club.id],
      categories: [musicId, "jazz", "Zydeco", "ärger"],
    });
    await deleteVenue(scope(editor), { id: goneVenue.id }, false);
    await event(editor, {
      title: "All day",
      all_day: true,
      start_date: "2031-06-01",
      end_date: "2031-06-03",
      timezone: "America/New_York",
      organizer: [quietClub.id],
      venue: { venue: "Inline venue", city: "New York", geo_lat: 40.7, geo_lng: -74 },
      image: "https://images.test/poster.tiff",
    });
    await event(author, {
      title: "Protected",
      description: "Hidden",
      password: FIXTURE_PASSWORD,
      all_day: true,
      start_date: "2031-04-01",
      end_date: "2031-04-01",
      venue: [hall.id],
      organizer: [club.id],
      categories: [musicId],
      image: "https://images.test/secret.png",
    });
    await event(author, { title: "Author draft", status: "draft", venue: [secretPlace.id] });
    await event(editor, { title: "Plain", start_date: "2031-12-31 23:00:00", end_date: "2032-01-01 01:00:00" });
    await event(editor, { title: "UTC zone", timezone: "UTC", description: "Just text" });
    await event(editor, { title: "Offset zone", timezone: "Asia/Kolkata" });
    await event(editor, { title: "Hidden from listings", hide_from_listings: true });
    await event(editor, { title: "Eine Nacht", translation_of: main.id }, "de");
    const imported = await event(editor, {
      title: "Imported",
      start_date: "2031-05-05 10:00:00",
      end_date: "2031-05-05 11:00:00",
    });
    await db.event.update({
      where: { id: imported.id },
      data: { icalUid: "abc@google.com", icalRecurrenceId: "20310505T080000Z", sequence: 4 },
    });
    const trashed = await event(editor, { title: "Trashed" });
    await deleteEvent(scope(editor), { id: trashed.id, force: false });
  });

  const queries: Array<[string, Partial<Record<keyof EventListQuery, unknown>>]> = [
    ["one day", { start_date: "2031-03-01", end_date: "2031-03-01" }],
    ["a year", { start_date: "2031-01-01", end_date: "2031-12-31" }],
    ["a year with the password", { start_date: "2031-01-01", end_date: "2031-12-31", password: FIXTURE_PASSWORD }],
    ["a category", { start_date: "2031-01-01", end_date: "2032-12-31", categories: ["music"] }],
    ["a search", { start_date: "2031-01-01", end_date: "2032-12-31", search: "night" }],
  ];

  it.each(queries)("writes the feed of %s as the list's presented events did, for every reader", async (_, raw) => {
    const query = eventListQuery.parse(raw);
    let written = 0;
    for (const language of ["en", "de"] as const) {
      for (const [name, actor] of Object.entries(actors)) {
        const reader = scope(actor, language);
        const expected = await outcomeOf(async () =>
          renderCalendar(HEADER, entriesOf(await listedFeedEvents(reader, query, 100)), undefined, NOW),
        );
        const feed = await outcomeOf(async () =>
          renderCalendar(HEADER, entriesOf(await selectFeedEvents(reader, query, 100)), undefined, NOW),
        );
        expect(feed, `${name} (${language})`).toBe(expected);
        written += feed.split("BEGIN:VEVENT").length - 1;
      }
    }
    expect(written).toBeGreaterThan(0);
  });

  it("stops at the cap, in the list's order", async () => {
    const query = eventListQuery.parse({ start_date: "2031-01-01", end_date: "2032-12-31" });
    const reader = scope(actors.editor);
    const capped = await selectFeedEvents(reader, query, 3);
    expect(capped.map((event) => event.title)).toEqual(
      (await listedFeedEvents(reader, query, 3)).map((event) => event.title),
    );
    expect(capped).toHaveLength(3);
  });
});

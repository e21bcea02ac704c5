import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, ANONYMOUS, ROLES, type Role } from "../auth/roles.ts";
import { canRead, detailsAccess, isRedacted, listStatusWhere } from "../auth/visibility.ts";
import type { Db } from "../db/db.ts";
import { DomainError, domainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import type { Language } from "../shared/language.ts";
import { searchWords } from "../shared/search.ts";
import {
  create,
  createTestActor,
  createTestActors,
  FIXTURE_PASSWORD,
  PROVIDERS,
  serviceWriters,
  type TestActors,
  testScope,
  useTestDatabase,
} from "../testing/index.ts";
import { deleteVenue } from "../venues/venue.service.ts";
import { deleteEvent } from "./event.delete.service.ts";
import { readEvent, readEventPage, readEvents } from "./event.document.ts";
import { getEvent, getEventBySlug } from "./event.get.service.ts";
import { eventRelations, loadEventRow, unknownSlug } from "./event.load.ts";
import { presentEvent, presentEventDetail } from "./event.present.ts";
import { buildEventWhere, type EventFilter, eventListOrder } from "./event.where.ts";

/**
 * The one-statement read of an event against the Prisma read it replaced (kept here only as the reference): for
 * every event of a rich calendar and every reader, the same row, the same presented event (byte for byte, keys in
 * the same order), and the same answer or error from the single GETs.
 */

/** The single GET as it was: the Prisma read of the row and of each relation, then the same checks. */
async function referenceGet(scope: Scope, id: number | undefined, password: string | undefined) {
  const row = id === undefined ? null : await loadEventRow(scope.db, { id });
  if (!row) throw domainError("rest-event-not-found", { id: id ?? 0 });
  if (row.status === "trash") throw domainError("event-no-longer-available");
  if (!canRead(scope.actor, row)) throw domainError("event-not-accessible");
  if (isRedacted(scope.actor, row, password)) throw domainError("event-password-protected");
  return presentEventDetail(row, await eventRelations(scope, [row], true), scope.links);
}

async function outcomeOf(work: Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify(await work);
  } catch (error) {
    if (error instanceof DomainError) return `${error.status} ${error.code}`;
    throw error;
  }
}

describe.each(PROVIDERS)("reading an event in one statement (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let db: Db;
  let actors: TestActors<Role>;
  const scope = (actor: Actor, language: Language = "en"): Scope => testScope(database.current, actor, language);

  beforeAll(async () => {
    db = database.current.handle.db;
    actors = await createTestActors(db, "read", ROLES);
    const other = await createTestActor(db, "read-other-author", "author");
    const { editor, author, contributor } = actors;
    const { venue, organizer, event } = serviceWriters(scope);
    const idOf = (actor: Actor) => (actor.kind === "user" ? actor.id : undefined);

    const hall = await venue(editor, {
      venue: "Philharmonie",
      description: "<p>The <b>big</b> hall</p>",
      excerpt: "Concerts",
      address: "Herbert-von-Karajan-Straße 1",
      city: "Berlin",
      country: "Germany",
      province: "Berlin",
      state: "BE",
      zip: "10785",
      stateprovince: "Berlin",
      phone: "+49 30 254880",
      website: "https://www.berliner-philharmoniker.de",
      image: "https://images.test/hall.jpg",
      geo_lat: 52.51,
      geo_lng: 13.37,
      show_map_link: false,
    });
    await venue(editor, { venue: "Philharmonie (de)", translation_of: hall.id }, "de");
    // Translating needs the right to edit the original: the editor files the author's translations.
    await venue(
      editor,
      { venue: "Philharmonie (fr)", translation_of: hall.id, status: "draft", author: idOf(author) },
      "fr",
    );
    const secretPlace = await venue(author, { venue: "Secret place", password: FIXTURE_PASSWORD, address: "Hidden 1" });
    const draftPlace = await venue(contributor, { venue: "Draft place", status: "draft" });
    const goneVenue = await venue(editor, { venue: "Gone venue" });
    const club = await organizer(editor, {
      organizer: "Jazz Club",
      email: "club@example.test",
      phone: "+1 555 0100",
      website: "https://club.example.test",
      image: "https://images.test/club.png?size=2",
      description: "Since 1960",
    });
    await organizer(editor, { organizer: "Jazzklub", translation_of: club.id }, "de");
    const secretClub = await organizer(other, {
      organizer: "Secret club",
      password: FIXTURE_PASSWORD,
      email: "s@x.test",
    });
    const draftClub = await organizer(author, { organizer: "Draft club", status: "draft" });
    const music = await create.category(db, { name: "Music", translationGroup: "g-music" });
    await create.category(db, { name: "Musik", language: "de", translationGroup: "g-music" });
    await create.category(db, { name: "jazz", parentId: music.id });

    const main = await event(editor, {
      title: "A <em>grand</em> night",
      description: "<p>Music &amp; more</p>",
      excerpt: "Short",
      timezone: "Europe/Berlin",
      image: "https://images.test/night.webp",
      cost: "10 – 20",
      website: "https://tickets.example.test",
      show_map: false,
      sticky: true,
      featured: true,
      ticketed: true,
      venue: [hall.id, secretPlace.id, draftPlace.id, goneVenue.id],
      organizer: [secretClub.id, club.id, draftClub.id],
      categories: [music.id, "Jazz", "Zydeco"],
      tags: ["loud", "Outdoor", "ächt"],
    });
    await deleteVenue(scope(editor), { id: goneVenue.id }, false);
    await event(editor, { title: "Eine große Nacht", translation_of: main.id, venue: [hall.id] }, "de");
    const byAuthor = { author: idOf(author) };
    await event(editor, { title: "Une grande nuit", translation_of: main.id, status: "draft", ...byAuthor }, "fr");
    await event(editor, { title: "Ein Entwurf", translation_of: main.id, status: "pending", ...byAuthor }, "zh-hans");
    await event(editor, {
      title: "All day",
      all_day: true,
      start_date: "2031-06-01",
      end_date: "2031-06-03",
      timezone: "America/New_York",
      organizer: [{ organizer: "Inline organizer", email: "inline@example.test" }],
      venue: { venue: "Inline venue", city: "New York", geo_lat: 40.7, geo_lng: -74 },
    });
    // Authors link existing tags only (docs/behaviour.md, "Creating events").
    await create.tag(db, { name: "secret" });
    await event(author, {
      title: "Protected",
      password: FIXTURE_PASSWORD,
      excerpt: "Hidden excerpt",
      venue: [secretPlace.id],
      categories: [music.id],
      tags: ["secret"],
    });
    await event(contributor, { title: "Contributor draft", status: "draft", venue: [draftPlace.id] });
    await event(author, { title: "Private", status: "private", date: "2030-01-01 10:00:00" });
    await event(author, { title: "Future", status: "future", date_utc: "2032-01-01 10:00:00" });
    await event(editor, { title: "Series child", post_parent: main.id, hide_from_listings: true });
    await event(editor, { title: "Plain", start_date: "2031-12-31 23:00:00", end_date: "2032-01-01 01:00:00" });
    await event(editor, { title: "UTC zone", timezone: "UTC", cost: "Free" });
    await event(editor, { title: "Offset zone", timezone: "Asia/Kolkata", cost: "5" });
    const trashed = await event(editor, { title: "Trashed" });
    await deleteEvent(scope(editor), { id: trashed.id, force: false });
  });

  async function everyEvent() {
    return db.event.findMany({ select: { id: true, slug: true, language: true }, orderBy: { id: "asc" } });
  }

  it("reads the same row and presents the same event as the Prisma read, for every event and reader", async () => {
    const events = await everyEvent();
    expect(events.length).toBe(14);
    for (const { id } of events) {
      const reference = await loadEventRow(db, { id });
      for (const [name, actor] of Object.entries(actors)) {
        const reader = scope(actor);
        const loaded = await readEvent(reader, { id });
        if (!loaded || !reference) throw new Error(`Event ${id} is missing.`);
        expect(loaded.row, `event ${id}`).toEqual(reference);
        for (const jsonLd of [true, false]) {
          const expected = await eventRelations(reader, [reference], jsonLd);
          const relations = await loaded.relations({ jsonLd });
          const context = `event ${id} for ${name}, json_ld ${jsonLd}`;
          expect(JSON.stringify(presentEventDetail(loaded.row, relations, reader.links)), context).toBe(
            JSON.stringify(presentEventDetail(reference, expected, reader.links)),
          );
          for (const redacted of [true, false]) {
            expect(JSON.stringify(presentEvent(loaded.row, relations, reader.links, { redacted })), context).toBe(
              JSON.stringify(presentEvent(reference, expected, reader.links, { redacted })),
            );
          }
        }
      }
    }
  });

  it("reads a page of events (shared venues, organizers and terms) as the Prisma read of the page did", async () => {
    const ids = (await everyEvent()).map((event) => event.id).reverse();
    const references = await Promise.all(ids.map((id) => loadEventRow(db, { id })));
    for (const [name, actor] of Object.entries(actors)) {
      const reader = scope(actor);
      const page = await readEvents(reader, [...ids, 999_999]);
      expect(page.rows, name).toEqual(references);
      const expected = await eventRelations(reader, page.rows, false);
      const relations = await page.relations({ jsonLd: false });
      for (const [index, row] of page.rows.entries()) {
        const reference = references[index];
        if (!reference) throw new Error(`Event ${row.id} is missing.`);
        for (const redacted of [true, false]) {
          expect(
            JSON.stringify(presentEvent(row, relations, reader.links, { redacted })),
            `${row.id} for ${name}`,
          ).toBe(JSON.stringify(presentEvent(reference, expected, reader.links, { redacted })));
        }
      }
    }
  });

  it("answers the single GETs by id and by slug as before, errors included, with and without the password", async () => {
    const events = await everyEvent();
    for (const { id, slug, language } of events) {
      for (const [name, actor] of Object.entries(actors)) {
        for (const password of [undefined, FIXTURE_PASSWORD, "wrong"]) {
          const reader = scope(actor, language as Language);
          const expected = await outcomeOf(referenceGet(reader, id, password));
          const context = `event ${id} for ${name}, password ${password}`;
          expect(await outcomeOf(getEvent(reader, { id, password })), context).toBe(expected);
          expect(await outcomeOf(getEventBySlug(reader, { slug, password })), context).toBe(expected);
        }
      }
    }
  });

  it("counts and pages the events of a list's filters as Prisma's count and page did, in one statement", async () => {
    const venues = await db.venue.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    const organizers = await db.organizer.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    const categories = await db.category.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    const tags = await db.tag.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    const main = (await everyEvent())[0]?.id ?? 0;
    const filters: Array<Partial<EventFilter> & { search?: string; window?: { skip: number; take: number } }> = [
      {},
      { window: { skip: 2, take: 3 } },
      { window: { skip: 40, take: 9 } },
      { dates: { startFrom: new Date("2031-03-01T00:00:00Z"), endUntil: new Date("2031-06-30T00:00:00Z") } },
      { dates: { startAfter: new Date("2031-03-01T18:00:00Z"), endBefore: new Date("2032-01-01T02:00:00Z") } },
      { dates: { startBefore: new Date("2031-07-01T00:00:00Z"), endAfter: new Date("2031-03-01T20:00:00Z") } },
      { search: "grand night" },
      { search: "hidden" },
      { search: "protected" },
      { categoryIds: categories.map((row) => row.id).slice(0, 2) },
      { tagIds: tags.map((row) => row.id) },
      { venueIds: venues.map((row) => row.id).slice(0, 2) },
      { organizerIds: organizers.map((row) => row.id) },
      { featured: true },
      { featured: false, ticketed: false },
      { postParent: main },
      { include: [main, main + 3, main + 5, 999_999] },
      { geoloc: true },
      { geoloc: false },
      { nearVenueIds: venues.map((row) => row.id) },
      { nearEventIds: [main, main + 4] },
    ];
    for (const [name, actor] of Object.entries(actors)) {
      const reader = scope(actor);
      for (const { search, window = { skip: 0, take: 50 }, ...rest } of filters) {
        const filter: EventFilter = {
          language: "en",
          status: listStatusWhere(actor, undefined),
          dates: {},
          searchWords: search ? searchWords(search) : [],
          protectedText: detailsAccess(actor),
          ...rest,
        };
        const where = buildEventWhere(filter);
        const orderBy = eventListOrder(filter);
        const [total, page] = await db.$transaction([
          db.event.count({ where }),
          db.event.findMany({ where, orderBy, ...window, select: { id: true } }),
        ]);
        const loaded = await readEventPage(reader, { where, orderBy, window });
        const context = `${JSON.stringify({ search, window, ...rest })} for ${name}`;
        expect({ total: loaded.total, ids: loaded.rows.map((row) => row.id) }, context).toEqual({
          total,
          ids: page.map((row) => row.id),
        });
        const reference = await readEvents(
          reader,
          loaded.rows.map((row) => row.id),
        );
        expect(loaded.rows, context).toEqual(reference.rows);
      }
    }
  });

  it("answers unknown ids and slugs as before", async () => {
    const reader = scope(ANONYMOUS);
    expect(await outcomeOf(getEvent(reader, { id: 999_999 }))).toBe(
      await outcomeOf(referenceGet(reader, 999_999, undefined)),
    );
    expect(await outcomeOf(getEventBySlug(reader, { slug: "no-such-event" }))).toBe(
      await outcomeOf(Promise.reject(unknownSlug("no-such-event"))),
    );
    expect(await outcomeOf(getEventBySlug(scope(ANONYMOUS, "de"), { slug: "plain" }))).toBe("400 rest_invalid_param");
  });
});

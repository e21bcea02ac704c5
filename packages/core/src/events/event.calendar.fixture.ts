import type { Actor, Role } from "../auth/roles.ts";
import type { Db } from "../db/db.ts";
import type { Scope } from "../scope.ts";
import type { Language } from "../shared/language.ts";
import { create, createTestActor, FIXTURE_PASSWORD, serviceWriters, type TestActors } from "../testing/index.ts";
import { deleteVenue } from "../venues/venue.service.ts";
import { deleteEvent } from "./event.delete.service.ts";
import type { SampleRecords } from "./event.filters.ts";

/**
 * A small calendar with every kind of record an event read must get right, for the tests that check the raw
 * reads against the Prisma reference: translations, a trashed venue, draft, private, pending, future and
 * password-protected events, and venues and organizers that are drafts or password-protected (some with places
 * near the points the list samples search around).
 */
export async function writeFixtureCalendar(
  db: Db,
  scope: (actor: Actor, language?: Language) => Scope,
  actors: TestActors<Role>,
): Promise<void> {
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
  const secretPlace = await venue(author, {
    venue: "Secret place",
    password: FIXTURE_PASSWORD,
    address: "Hidden 1",
    geo_lat: 52.53,
    geo_lng: 13.41,
  });
  const draftPlace = await venue(contributor, {
    venue: "Draft place",
    status: "draft",
    geo_lat: 40.71,
    geo_lng: -74.01,
  });
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
  // Published and open events whose only venue or organizer some readers may not see (or not see the place of).
  await event(editor, { title: "At the secret place", venue: [secretPlace.id], organizer: [secretClub.id] });
  await event(editor, { title: "At the draft place", venue: [draftPlace.id], organizer: [draftClub.id] });
  await event(author, { title: "Private", status: "private", date: "2030-01-01 10:00:00" });
  await event(author, { title: "Future", status: "future", date_utc: "2032-01-01 10:00:00" });
  await event(editor, { title: "Series child", post_parent: main.id, hide_from_listings: true });
  await event(editor, { title: "Plain", start_date: "2031-12-31 23:00:00", end_date: "2032-01-01 01:00:00" });
  await event(editor, { title: "UTC zone", timezone: "UTC", cost: "Free" });
  await event(editor, { title: "Offset zone", timezone: "Asia/Kolkata", cost: "5" });
  const trashed = await event(editor, { title: "Trashed" });
  await deleteEvent(scope(editor), { id: trashed.id, force: false });
}

/** The records of the calendar, for the samples of the list parameters (`EVENT_LIST_PARAMS`). */
export async function sampleRecords(db: Db): Promise<SampleRecords> {
  const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);
  const byId = { select: { id: true }, orderBy: { id: "asc" } } as const;
  const [events, venues, organizers, categories, tags] = await Promise.all([
    db.event.findMany(byId),
    db.venue.findMany(byId),
    db.organizer.findMany(byId),
    db.category.findMany(byId),
    db.tag.findMany(byId),
  ]);
  return {
    events: ids(events),
    venues: ids(venues),
    organizers: ids(organizers),
    categories: ids(categories),
    tags: ids(tags),
    password: FIXTURE_PASSWORD,
  };
}

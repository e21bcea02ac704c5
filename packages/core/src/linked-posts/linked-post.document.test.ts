import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, ANONYMOUS, ROLES, type Role } from "../auth/roles.ts";
import { isRedacted, listStatusWhere } from "../auth/visibility.ts";
import type { Db } from "../db/db.ts";
import { domainError, invalidParam } from "../errors.ts";
import { deleteEvent } from "../events/event.delete.service.ts";
import { presentOrganizer } from "../organizers/organizer.present.ts";
import { deleteOrganizer, listOrganizers } from "../organizers/organizer.service.ts";
import { ORGANIZER_SEARCH_COLUMNS } from "../organizers/organizer.where.ts";
import type { Scope } from "../scope.ts";
import { withImages } from "../shared/images.ts";
import type { Language } from "../shared/language.ts";
import type { PresentView } from "../shared/present-view.ts";
import { pageWindow, totalPages } from "../shared/query.ts";
import { translationsOf } from "../shared/translations.ts";
import {
  createTestActors,
  FIXTURE_PASSWORD,
  outcomeOf,
  PROVIDERS,
  serviceWriters,
  type TestActors,
  testScope,
  useTestDatabase,
} from "../testing/index.ts";
import { presentVenue } from "../venues/venue.present.ts";
import { deleteVenue, listVenues } from "../venues/venue.service.ts";
import { VENUE_SEARCH_COLUMNS } from "../venues/venue.where.ts";
import { eventLinksShown } from "./event-links.ts";
import type { LinkedPostRow, LinkedPostWhere } from "./linked-post.kind.ts";
import { listLinks } from "./linked-post.present.ts";
import { type LinkedPostListQuery, linkedPostListQuery } from "./linked-post.schemas.ts";
import { searchFieldCount } from "./linked-post.search.ts";
import { buildLinkedPostWhere, eventsNamedBy, LINKED_POST_ORDER } from "./linked-post.where.ts";

/**
 * The one-statement list of venues and organizers against the Prisma list it replaced (kept here only as the
 * reference): for every query of a matrix, every reader and two languages, the same answer or error, byte for byte.
 */

interface ReferenceKind {
  plural: "venues" | "organizers";
  singular: "venue" | "organizer";
  searchColumns: readonly unknown[];
  findMany(db: Db, args: { where: LinkedPostWhere; skip?: number; take?: number }): Promise<unknown[]>;
  count(db: Db, where: LinkedPostWhere): Promise<number>;
  present(row: never, view: PresentView): unknown;
}

const REFERENCE_KINDS: ReferenceKind[] = [
  {
    plural: "venues",
    singular: "venue",
    searchColumns: VENUE_SEARCH_COLUMNS,
    findMany: (db, args) => db.venue.findMany({ ...args, orderBy: LINKED_POST_ORDER }),
    count: (db, where) => db.venue.count({ where }),
    present: presentVenue,
  },
  {
    plural: "organizers",
    singular: "organizer",
    searchColumns: ORGANIZER_SEARCH_COLUMNS,
    findMany: (db, args) => db.organizer.findMany({ ...args, orderBy: LINKED_POST_ORDER }),
    count: (db, where) => db.organizer.count({ where }),
    present: presentOrganizer,
  },
];

/** The list as it was: Prisma's page and count, one translation query, the same presenter. */
async function referenceList(kind: ReferenceKind, scope: Scope, query: LinkedPostListQuery) {
  const where = buildLinkedPostWhere(query, {
    actor: scope.actor,
    language: scope.language,
    now: new Date(),
    searchFieldCount: searchFieldCount(kind.searchColumns),
  });
  for (const { param, id } of eventsNamedBy(query)) {
    const event = await scope.db.event.findUnique({ where: { id } });
    if (!event) throw invalidParam(param, `No event has the id ${id}.`);
    eventLinksShown(scope.actor, event);
  }
  const rows = (await withImages(
    scope.db,
    (await kind.findMany(scope.db, { where, ...pageWindow(query) })) as Array<{ imageId: number | null }>,
  )) as unknown as Array<LinkedPostRow<unknown>>;
  const total = await kind.count(scope.db, where);
  if (query.page > 1 && rows.length === 0) throw domainError(`${kind.singular}-archive-page-not-found`);
  const visible = listStatusWhere(scope.actor, undefined);
  const translations = await translationsOf(
    rows,
    async (groups) =>
      (await kind.findMany(scope.db, {
        where: { AND: [{ translationGroup: { in: groups } }, visible] },
      })) as Array<LinkedPostRow<unknown>>,
  );
  const pages = totalPages(total, query.per_page);
  const present = kind.present as (row: LinkedPostRow<unknown>, view: PresentView) => unknown;
  return {
    [kind.plural]: rows.map((row) =>
      present(row, {
        links: scope.links,
        jsonLd: false,
        redacted: isRedacted(scope.actor, row),
        translations: translations.get(row.id) ?? {},
      }),
    ),
    ...listLinks(scope.links, kind.plural, query, pages),
    total,
    total_pages: pages,
  };
}

describe.each(PROVIDERS)("listing venues and organizers in one statement (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let db: Db;
  let actors: TestActors<Role>;
  const events: Record<string, number> = {};
  const scope = (actor: Actor, language: Language = "en"): Scope => testScope(database.current, actor, language);

  beforeAll(async () => {
    db = database.current.handle.db;
    actors = await createTestActors(db, "list", ROLES);
    const { editor, author, contributor } = actors;
    const { venue, organizer, event } = serviceWriters(scope);
    const idOf = (actor: Actor) => (actor.kind === "user" ? actor.id : undefined);

    const hall = await venue(editor, {
      venue: "Philharmonie",
      description: "<p>The <b>big</b> hall of Berlin</p>",
      excerpt: "Concerts",
      address: "Herbert-von-Karajan-Straße 1",
      city: "Berlin",
      country: "Germany",
      zip: "10785",
      phone: "+49 30 254880",
      website: "https://www.berliner-philharmoniker.de",
      image: "https://images.test/hall.jpg",
      geo_lat: 52.509722222222,
      geo_lng: 13.369444444444444,
      show_map_link: false,
      date_utc: "2024-01-01 10:00:00",
    });
    await venue(editor, { venue: "Philharmonie (de)", translation_of: hall.id, city: "Berlin" }, "de");
    // Translating needs the right to edit the original: the editor files the author's and contributor's translations.
    await venue(
      editor,
      { venue: "Philharmonie (fr)", translation_of: hall.id, status: "draft", author: idOf(author) },
      "fr",
    );
    const secretPlace = await venue(author, {
      venue: "Secret place",
      password: FIXTURE_PASSWORD,
      address: "Hidden hall 1",
    });
    const draftPlace = await venue(contributor, { venue: "Draft place", status: "draft", city: "Zürich" });
    await venue(contributor, { venue: "Pending hall", status: "pending" });
    await venue(editor, { venue: "Private room", status: "private", image: "https://images.test/room.png" });
    await venue(author, { venue: "Café Öl-Mühle", city: "Zürich", date_utc: "2024-01-01 10:00:00" });
    await venue(editor, { venue: "Same date hall", date_utc: "2024-01-01 10:00:00", show_map: false });
    const goneVenue = await venue(editor, { venue: "Gone venue", city: "Berlin" });
    await venue(editor, { venue: "Stadthalle", city: "Köln" }, "de");

    const club = await organizer(editor, {
      organizer: "Jazz Club",
      email: "club@example.test",
      phone: "+1 555 0100",
      website: "https://club.example.test",
      image: "https://images.test/club.png?size=2",
      description: "Since 1960 in Berlin",
    });
    await organizer(editor, { organizer: "Jazzklub", translation_of: club.id }, "de");
    await organizer(
      editor,
      { organizer: "Jazz club (fr)", translation_of: club.id, status: "pending", author: idOf(contributor) },
      "fr",
    );
    const secretClub = await organizer(author, {
      organizer: "Secret club",
      password: FIXTURE_PASSWORD,
      email: "s@x.test",
    });
    const draftClub = await organizer(contributor, { organizer: "Draft club", status: "draft" });
    const goneClub = await organizer(editor, { organizer: "Gone club" });

    events.main = (
      await event(editor, {
        title: "Concert",
        venue: [hall.id, secretPlace.id, draftPlace.id, goneVenue.id],
        organizer: [club.id, secretClub.id, draftClub.id, goneClub.id],
      })
    ).id;
    events.past = (
      await event(editor, {
        title: "Past",
        start_date: "2020-03-01 19:00:00",
        end_date: "2020-03-01 21:00:00",
        venue: [secretPlace.id],
        organizer: [secretClub.id],
      })
    ).id;
    events.draft = (await event(contributor, { title: "Draft", status: "draft", venue: [draftPlace.id] })).id;
    events.protected = (
      await event(author, { title: "Protected", password: FIXTURE_PASSWORD, venue: [hall.id], organizer: [club.id] })
    ).id;
    events.german = (await event(editor, { title: "Konzert", venue: [hall.id] }, "de")).id;
    events.trashed = (await event(editor, { title: "Trashed", venue: [hall.id] })).id;
    await deleteEvent(scope(editor), { id: events.trashed, force: false });
    await deleteVenue(scope(editor), { id: goneVenue.id }, false);
    await deleteOrganizer(scope(editor), { id: goneClub.id }, false);
  });

  const QUERIES: Array<Record<string, unknown>> = [
    {},
    { per_page: 2 },
    { per_page: 2, page: 2 },
    { per_page: 2, page: 9 },
    { search: "phil" },
    { search: "berlin hall" },
    { search: "zurich" },
    { search: "ÖL MÜHLE" },
    { search: "karajan-straße" },
    { search: "hidden hall" },
    { search: "%%" },
    { search: "club", status: "publish" },
    { has_events: true },
    { has_events: false },
    { only_with_upcoming: true },
    { only_with_upcoming: true, has_events: true, per_page: 1 },
    { status: "publish" },
    { status: "draft,pending" },
    { status: ["trash"] },
    { status: "private", search: "room" },
  ];

  // Hundreds of lists, each read twice: more than the default time on a loaded machine.
  it("answers every list as the Prisma list did, for every reader and language", async () => {
    const eventQueries = Object.values(events).map((event) => ({ event }));
    const queries = [...QUERIES, ...eventQueries, { event: 999_999 }];
    const lists = { venues: listVenues, organizers: listOrganizers };
    let compared = 0;
    for (const kind of REFERENCE_KINDS) {
      for (const raw of queries) {
        const query = linkedPostListQuery.parse(raw);
        for (const [name, actor] of Object.entries(actors)) {
          for (const language of ["en", "de"] as const) {
            const reader = scope(actor, language);
            const context = `${kind.plural} ${JSON.stringify(raw)} for ${name} in ${language}`;
            const expected = await outcomeOf(() => referenceList(kind, reader, query));
            expect(await outcomeOf(() => lists[kind.plural](reader, query)), context).toBe(expected);
            if (expected.startsWith("{")) compared += 1;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(400);
  }, 180_000);

  it("lists the fixtures' records with their images, translations and redaction", async () => {
    const page = (await listVenues(scope(actors.editor), linkedPostListQuery.parse({ search: "philharmonie" }))) as {
      venues: Array<Record<string, unknown>>;
      total: number;
    };
    expect(page.total).toBe(1);
    expect(page.venues[0]).toMatchObject({
      venue: "Philharmonie",
      geo_lat: 52.509722222222,
      geo_lng: 13.369444444444444,
      show_map: true,
      show_map_link: false,
      image: { url: "https://images.test/hall.jpg" },
    });
    expect(Object.keys(page.venues[0]?.translations as object).sort()).toEqual(["de", "fr"]);
    const anonymous = (await listVenues(scope(ANONYMOUS), linkedPostListQuery.parse({ search: "secret" }))) as {
      venues: Array<Record<string, unknown>>;
    };
    expect(anonymous.venues[0]).toMatchObject({ venue: "Secret place" });
    expect(anonymous.venues[0]?.address).toBeUndefined();
  });
});

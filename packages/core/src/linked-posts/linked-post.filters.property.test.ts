import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, ROLES, type Role } from "../auth/roles.ts";
import { isListedFor, isRedacted, listStatusWhere } from "../auth/visibility.ts";
import type { Db } from "../db/db.ts";
import { domainError, invalidParam } from "../errors.ts";
import { deleteEvent } from "../events/event.delete.service.ts";
import { listOrganizers } from "../organizers/organizer.service.ts";
import type { Scope } from "../scope.ts";
import type { Language } from "../shared/language.ts";
import { pageWindow } from "../shared/query.ts";
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
import { listVenues } from "../venues/venue.service.ts";
import { areEventLinksShown, eventLinksShown } from "./event-links.ts";
import { type LINKED_POST_PARAMETERS, type LinkedPostListQuery, linkedPostListQuery } from "./linked-post.filters.ts";
import { searchFragments } from "./linked-post.search.ts";
import { eventsNamedBy } from "./linked-post.where.ts";

/**
 * The venue and organizer lists against an oracle built from the predicates of `auth/visibility.ts` and
 * `event-links.ts` (the lists use their `where` forms): list queries generated from `LINKED_POST_PARAMETERS`, for
 * every role, over records and events in every status and password state, linked both ways.
 */

const NOT_COUNTED_EVENT_STATUSES = ["draft", "pending", "trash"];

interface LinkedEvent {
  status: string;
  authorId: number | null;
  password: string;
  language: string;
  startUtc: Date;
}

interface OracleRecord {
  id: number;
  status: string;
  authorId: number | null;
  password: string;
  language: string;
  searchText: string;
  postDateUtc: Date;
  events: Array<{ eventId: number; event: LinkedEvent }>;
}

const KINDS = [
  {
    plural: "venues",
    singular: "venue",
    list: listVenues,
    all: (db: Db): Promise<OracleRecord[]> => db.venue.findMany({ include: { events: { include: { event: true } } } }),
  },
  {
    plural: "organizers",
    singular: "organizer",
    list: listOrganizers,
    all: (db: Db): Promise<OracleRecord[]> =>
      db.organizer.findMany({ include: { events: { include: { event: true } } } }),
  },
] as const;

/** Does some field the search may read contain every fragment? (`searchText`: one marked line per field.) */
function searchMatches(record: OracleRecord, fragments: readonly string[], redacted: boolean): boolean {
  if (fragments.length === 0) return false;
  // Each line is `<marker><index><marker><text>`.
  const fields = record.searchText.split("\n").map((line) => line.slice(line.indexOf("\u001f", 1) + 1));
  const readable = redacted ? fields.slice(0, 1) : fields;
  return readable.some((field) => fragments.every((fragment) => field.includes(fragment)));
}

/** What the list must answer, from the predicates: the ids of the page and the total. */
async function oracle(
  kind: (typeof KINDS)[number],
  db: Db,
  actor: Actor,
  language: Language,
  query: LinkedPostListQuery,
  now: Date,
) {
  listStatusWhere(actor, query.status);
  for (const { param, id } of eventsNamedBy(query)) {
    const event = await db.event.findUnique({ where: { id } });
    if (!event) throw invalidParam(param, `No event has the id ${id}.`);
    eventLinksShown(actor, event);
  }
  const fragments = query.search === undefined ? undefined : searchFragments(query.search);
  const shown = (link: { event: LinkedEvent }) => areEventLinksShown(actor, link.event);
  const ofLanguage = (link: { event: LinkedEvent }) => link.event.language === language;
  const matching = (await kind.all(db)).filter((record) => {
    const hasEvents = record.events.some(
      (link) => ofLanguage(link) && !NOT_COUNTED_EVENT_STATUSES.includes(link.event.status) && shown(link),
    );
    return (
      record.language === language &&
      (query.status ? query.status.includes(record.status as never) : isListedFor(actor, record)) &&
      (fragments === undefined || searchMatches(record, fragments, isRedacted(actor, record))) &&
      (query.event === undefined || record.events.some((link) => link.eventId === query.event && shown(link))) &&
      (query.has_events === undefined || query.has_events === hasEvents) &&
      (!query.only_with_upcoming ||
        record.events.some((link) => ofLanguage(link) && link.event.startUtc >= now && shown(link)))
    );
  });
  matching.sort((a, b) => b.postDateUtc.getTime() - a.postDateUtc.getTime() || b.id - a.id);
  const { skip, take } = pageWindow(query);
  const ids = matching.slice(skip, skip + take).map((record) => record.id);
  if (query.page > 1 && ids.length === 0) throw domainError(`${kind.singular}-archive-page-not-found`);
  return { ids, total: matching.length };
}

describe.each(PROVIDERS)("venue and organizer lists against the visibility predicates (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let db: Db;
  let actors: TestActors<Role>;
  const eventIds: number[] = [];
  const scope = (actor: Actor, language: Language = "en"): Scope => testScope(database.current, actor, language);

  beforeAll(async () => {
    db = database.current.handle.db;
    actors = await createTestActors(db, "property", ROLES);
    const { editor, author, contributor } = actors;
    const { venue, organizer, event } = serviceWriters(scope);
    const secret = { password: FIXTURE_PASSWORD };
    const venues = [
      await venue(editor, { venue: "Open hall", address: "Market street 1", city: "Berlin" }),
      await venue(editor, { venue: "Secret hall", address: "Hidden street 5", city: "Berlin", ...secret }),
      await venue(editor, { venue: "Draft hall", status: "draft", city: "Berlin" }),
      await venue(editor, { venue: "Private hall", status: "private", address: "Hidden street 7" }),
      await venue(author, { venue: "Author hall", city: "Hamburg", ...secret }),
      await venue(contributor, { venue: "Contributed hall", city: "Berlin" }),
      await venue(editor, { venue: "Halle", city: "Berlin" }, "de"),
    ];
    const organizers = [
      await organizer(editor, { organizer: "Open club", email: "open@club.test" }),
      await organizer(editor, { organizer: "Secret club", email: "hidden@club.test", ...secret }),
      await organizer(editor, { organizer: "Draft club", status: "draft", email: "draft@club.test" }),
      await organizer(author, { organizer: "Author club", phone: "555 0100", ...secret }),
      await organizer(contributor, { organizer: "Contributed club", phone: "555 0100" }),
      await organizer(editor, { organizer: "Verein", email: "verein@club.test" }, "de"),
    ];
    const linked = (from: number) => ({
      venue: venues.filter((_, index) => (index + from) % 3 !== 0).map((record) => record.id),
      organizer: organizers.filter((_, index) => (index + from) % 2 !== 0).map((record) => record.id),
    });
    const written = [
      await event(editor, { title: "Upcoming", ...linked(0) }),
      await event(editor, {
        title: "Past",
        start_date: "2020-03-01 19:00:00",
        end_date: "2020-03-01 21:00:00",
        ...linked(1),
      }),
      await event(editor, { title: "Draft", status: "draft", ...linked(2) }),
      await event(editor, { title: "Private", status: "private", ...linked(1) }),
      await event(editor, { title: "Protected", ...secret, ...linked(2) }),
      await event(editor, { title: "Trashed", ...linked(0) }),
      await event(editor, { title: "Konzert", ...linked(1) }, "de"),
    ];
    eventIds.push(...written.map((written) => written.id));
    // Owned by others than the editor who wrote them: the author's protected event, the contributor's draft.
    const idOf = (actor: Actor) => (actor.kind === "user" ? actor.id : null);
    await db.event.update({ where: { id: written[4]?.id }, data: { authorId: idOf(author) } });
    await db.event.update({ where: { id: written[2]?.id }, data: { authorId: idOf(contributor) } });
    await deleteEvent(scope(editor), { id: written[5]?.id ?? 0, force: false });
  });

  /** The values each parameter takes (`undefined`: not sent); a new parameter does not compile until it has some. */
  const parameterValues = () =>
    ({
      page: fc.constantFrom(1, 1, 2, 3),
      per_page: fc.constantFrom(undefined, 1, 3),
      search: fc.constantFrom(undefined, "hidden", "hidden street", "berlin", "secret", "club.test", "555", "hall"),
      event: fc.constantFrom(undefined, ...eventIds, 999_999),
      has_events: fc.constantFrom(undefined, true, false),
      only_with_upcoming: fc.constantFrom(undefined, true, false),
      status: fc.constantFrom(undefined, "publish", "draft,pending", "private", "trash"),
      ml_language: fc.constantFrom("en", "de"),
    }) satisfies Record<keyof typeof LINKED_POST_PARAMETERS, fc.Arbitrary<unknown>>;

  // Each generated query is read by every actor of both kinds, on both paths: more than the default time.
  it("answers each generated query as the predicates say, for every role", async () => {
    const runs = Number(process.env.CALENDAR_FUZZ_RUNS ?? 60);
    await fc.assert(
      fc.asyncProperty(fc.record(parameterValues()), async (raw) => {
        const query = linkedPostListQuery.parse(
          Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined)),
        );
        for (const kind of KINDS) {
          for (const [name, actor] of Object.entries(actors)) {
            const reader = scope(actor, query.ml_language ?? "en");
            const now = new Date();
            const actual = await outcomeOf(async () => {
              const page = (await kind.list(reader, query)) as { total: number } & Record<
                string,
                Array<{ id: number }>
              >;
              return { ids: (page[kind.plural] ?? []).map((record) => record.id), total: page.total };
            });
            const expected = await outcomeOf(() => oracle(kind, db, actor, reader.language, query, now));
            expect(actual, `${kind.plural} ${JSON.stringify(raw)} for ${name}`).toBe(expected);
          }
        }
      }),
      { numRuns: runs },
    );
  }, 180_000);
});

import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, ANONYMOUS, ROLES, type Role } from "../auth/roles.ts";
import { canRead, isRedacted } from "../auth/visibility.ts";
import type { Db } from "../db/db.ts";
import { DomainError, domainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import type { Language } from "../shared/language.ts";
import { pageWindow } from "../shared/query.ts";
import {
  createTestActors,
  FIXTURE_PASSWORD,
  PROVIDERS,
  type TestActors,
  testScope,
  useTestDatabase,
} from "../testing/index.ts";
import { sampleRecords, writeFixtureCalendar } from "./event.calendar.fixture.ts";
import { readEvent, readEventPage, readEvents } from "./event.document.ts";
import { EVENT_LIST_PARAMS, eventListQuery, LIST_PARAM_NAMES } from "./event.filters.ts";
import { getEvent, getEventBySlug } from "./event.get.service.ts";
import { listSelectionOf } from "./event.list.service.ts";
import { eventRelations, loadEventRow, unknownSlug } from "./event.load.ts";
import { presentEvent, presentEventDetail } from "./event.present.ts";
import { buildEventWhere, eventListOrder } from "./event.where.ts";

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
  return presentEventDetail(row, await eventRelations(scope, [row], true), scope.links, null);
}

/** Every event of the fixture calendar, whatever the clock says (the default window follows the clock). */
const WHOLE_CALENDAR = { start_date: "2000-01-01", end_date: "2040-01-01" };

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
    await writeFixtureCalendar(db, scope, actors);
  });

  async function everyEvent() {
    return db.event.findMany({ select: { id: true, slug: true, language: true }, orderBy: { id: "asc" } });
  }

  it("reads the same row and presents the same event as the Prisma read, for every event and reader", async () => {
    const events = await everyEvent();
    expect(events.length).toBe(16);
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
          expect(JSON.stringify(presentEventDetail(loaded.row, relations, reader.links, null)), context).toBe(
            JSON.stringify(presentEventDetail(reference, expected, reader.links, null)),
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

  it("counts and pages the events of every sample of every list parameter as Prisma's count and page do", async () => {
    const records = await sampleRecords(db);
    for (const [name, actor] of Object.entries(actors)) {
      const reader = scope(actor);
      for (const param of LIST_PARAM_NAMES) {
        for (const sample of EVENT_LIST_PARAMS[param].samples(records)) {
          for (const paging of [{}, { per_page: 3, page: 2 }]) {
            const input = { ...WHOLE_CALENDAR, ...paging, [param]: sample };
            const parsed = eventListQuery.safeParse(input);
            if (!parsed.success) continue;
            const context = `${JSON.stringify(input)} for ${name}`;
            const selection = await listSelectionOf(reader, parsed.data).catch((error: unknown) => {
              if (error instanceof DomainError) return undefined;
              throw error;
            });
            if (!selection) continue;
            const { filter } = selection;
            const where = buildEventWhere(filter);
            const orderBy = eventListOrder(filter);
            const window = pageWindow(parsed.data);
            const [total, page] = await db.$transaction([
              db.event.count({ where }),
              db.event.findMany({ where, orderBy, ...window, select: { id: true } }),
            ]);
            const loaded = await readEventPage(reader, { where, orderBy, window });
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

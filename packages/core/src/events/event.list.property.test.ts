import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, ANONYMOUS, ROLES, type Role } from "../auth/roles.ts";
import { isRedacted } from "../auth/visibility.ts";
import type { Db } from "../db/db.ts";
import { DomainError, domainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { pageWindow } from "../shared/query.ts";
import { createTestActors, PROVIDERS, type TestActors, testScope, useTestDatabase } from "../testing/index.ts";
import { sampleRecords, writeFixtureCalendar } from "./event.calendar.fixture.ts";
import {
  EVENT_LIST_PARAMS,
  type EventListQuery,
  eventListQuery,
  LIST_PARAM_NAMES,
  type SampleRecords,
} from "./event.filters.ts";
import { listEvents, listSelectionOf } from "./event.list.service.ts";
import { eventRelations, loadEventRow } from "./event.load.ts";
import type { EventOutput } from "./event.output.schemas.ts";
import { eventListLinks, presentEvent } from "./event.present.ts";
import { buildEventWhere, eventListOrder, orderByStartThenDistance } from "./event.where.ts";

/**
 * List queries drawn from the filter table (each parameter absent or one of its entry's samples), for every role
 * and password state: `GET /events` through the raw one-statement read answers exactly what the Prisma reference
 * answers, linked records included, and a filter over linked records matches only through records the answer
 * shows. `CALENDAR_LIST_PROPERTY_RUNS` sets the number of queries per database.
 */
const RUNS = Number(process.env.CALENDAR_LIST_PROPERTY_RUNS ?? 60);

/** Every event of the fixture calendar unless a query sets its own dates (the default window follows the clock). */
const WHOLE_CALENDAR = { start_date: "2000-01-01", end_date: "2040-01-01" };

function queries(records: SampleRecords) {
  const params = Object.fromEntries(
    LIST_PARAM_NAMES.map((name) => {
      const samples = EVENT_LIST_PARAMS[name].samples(records);
      const given = samples.length ? [{ arbitrary: fc.constantFrom(...samples), weight: 1 }] : [];
      return [name, fc.oneof({ arbitrary: fc.constant(undefined), weight: 12 }, ...given)];
    }),
  );
  return fc.record(params).map((drawn) => ({
    ...WHOLE_CALENDAR,
    ...Object.fromEntries(Object.entries(drawn).filter(([, value]) => value !== undefined)),
  }));
}

/** The answer of `GET /events` from Prisma reads alone: the count, the page, each row and its relations. */
async function referenceList(scope: Scope, query: EventListQuery) {
  const { db } = scope;
  const { window, distances, filter } = await listSelectionOf(scope, query);
  const where = buildEventWhere(filter);
  const { skip, take } = pageWindow(query);
  let total: number;
  let ids: number[];
  if (distances && filter.order === "start") {
    const all = await db.event.findMany({
      where,
      select: { id: true, startUtc: true, postDateUtc: true, venues: { select: { venueId: true } } },
    });
    const candidates = all.map((row) => ({ ...row, venueIds: row.venues.map((link) => link.venueId) }));
    total = all.length;
    ids = orderByStartThenDistance(candidates, distances)
      .slice(skip, skip + take)
      .map((row) => row.id);
  } else {
    total = await db.event.count({ where });
    ids = (await db.event.findMany({ where, orderBy: eventListOrder(filter), skip, take, select: { id: true } })).map(
      (row) => row.id,
    );
  }
  if (query.page > 1 && ids.length === 0) throw domainError("event-archive-page-not-found");
  const rows = (await Promise.all(ids.map((id) => loadEventRow(db, { id })))).flatMap((row) => (row ? [row] : []));
  const relations = await eventRelations(scope, rows, false);
  const events = rows.map((row) =>
    presentEvent(row, relations, scope.links, { redacted: isRedacted(scope.actor, row, query.password) }),
  );
  return { events, ...eventListLinks(scope.links, query, window.echo, total) };
}

async function outcomeOf(work: Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify(await work);
  } catch (error) {
    if (error instanceof DomainError) return `${error.status} ${error.code}`;
    throw error;
  }
}

function venuesOf(event: EventOutput) {
  return Array.isArray(event.venue) ? event.venue : [event.venue];
}

/** What every listed event must show, for the filters over linked records that the query gives. */
function expectMatchesShown(query: EventListQuery, events: readonly EventOutput[], context: string) {
  for (const event of events) {
    const venues = venuesOf(event);
    const placed = venues.some((venue) => venue.geo_lat !== undefined && venue.geo_lng !== undefined);
    if (query.geoloc === true || query.geoloc_lat !== undefined) expect(placed, `${context}: ${event.id}`).toBe(true);
    if (query.geoloc === false) expect(placed, `${context}: ${event.id}`).toBe(false);
    const { venue, organizer } = query;
    if (venue)
      expect(
        venues.some((shown) => venue.includes(shown.id)),
        `${context}: ${event.id}`,
      ).toBe(true);
    if (organizer) {
      expect(
        event.organizer.some((shown) => organizer.includes(shown.id)),
        `${context}: ${event.id}`,
      ).toBe(true);
    }
  }
}

describe.each(PROVIDERS)("list queries drawn from the filter table (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let db: Db;
  let actors: TestActors<Role>;
  let records: SampleRecords;
  const scope = (actor: Actor, language: EventListQuery["ml_language"] = "en"): Scope =>
    testScope(database.current, actor, language ?? "en");

  beforeAll(async () => {
    db = database.current.handle.db;
    actors = await createTestActors(db, "property", ROLES);
    await writeFixtureCalendar(db, scope, actors);
    records = await sampleRecords(db);
  });

  it("answers every role and password as the Prisma reference does, matching only through shown records", async () => {
    const readers: Array<[string, Actor]> = [["anonymous", ANONYMOUS], ...Object.entries(actors)];
    await fc.assert(
      fc.asyncProperty(queries(records), fc.constantFrom(...readers), async (input, [name, actor]) => {
        const parsed = eventListQuery.safeParse(input);
        fc.pre(parsed.success);
        if (!parsed.success) return;
        const reader = scope(actor, parsed.data.ml_language);
        const context = `${JSON.stringify(input)} for ${name}`;
        const answer = await outcomeOf(listEvents(reader, parsed.data));
        expect(answer, context).toBe(await outcomeOf(referenceList(reader, parsed.data)));
        if (answer.startsWith("{")) {
          expectMatchesShown(parsed.data, (JSON.parse(answer) as { events: EventOutput[] }).events, context);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

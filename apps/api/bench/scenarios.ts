import { createCalendarClient } from "@calendar/client";
import { createDb } from "@calendar/core";
import { BENCHMARK_GEO_CENTRE } from "../src/seed/benchmark-calendar.words.ts";
import type { BenchRequest } from "./load.ts";

/**
 * The scenarios of issue 7. Reads are measured on the API and, with the same request, on the limit server; the
 * list and single reads also over tRPC, in the request format of `@calendar/client`'s link (captured from the
 * client itself). Names contain "list" or "single" as the report's readers expect.
 */

export type Transport = "rest" | "trpc";

export interface ReadScenario {
  name: string;
  rest: BenchRequest;
  trpc?: BenchRequest;
}

export interface WriteScenario {
  name: string;
  rest: BenchRequest;
}

/** What the scenarios need from the seeded database. */
export interface Fixtures {
  events: Array<{ id: number; slug: string }>;
  category: number;
  tag: number;
  token: string;
}

const API = "/cal/events/v1";
const SEARCH_WORD = "jazz";
const VENUE_WORD = "harbour";

/** Readable events for the single reads, the busiest category and tag for the filtered list. */
export async function readFixtures(url: string, token: string): Promise<Fixtures> {
  const handle = await createDb(url);
  try {
    const { db } = handle;
    const events = await db.event.findMany({
      where: { language: "en", status: "publish", password: "" },
      select: { id: true, slug: true },
      orderBy: { id: "asc" },
      take: 200,
      skip: 50,
    });
    const [category] = await db.eventCategory.groupBy({
      by: ["categoryId"],
      where: { category: { parentId: { not: null } } },
      _count: { eventId: true },
      orderBy: { _count: { eventId: "desc" } },
      take: 1,
    });
    const [tag] = await db.eventTag.groupBy({
      by: ["tagId"],
      _count: { eventId: true },
      orderBy: { _count: { eventId: "desc" } },
      take: 1,
    });
    if (!category || !tag || events.length === 0) throw new Error("The benchmark database is not seeded.");
    return { events, category: category.categoryId, tag: tag.tagId, token };
  } finally {
    await handle.close();
  }
}

/** Cycles through a list: each request of a run gets the next item. */
function rotating<T>(items: readonly T[], toPath: (item: T) => string): Pick<BenchRequest, "path" | "next"> {
  const paths = items.map(toPath);
  let index = 0;
  return {
    path: paths[0] ?? "/",
    next: () => {
      index = (index + 1) % paths.length;
      return { path: paths[index] ?? "/" };
    },
  };
}

type Client = ReturnType<typeof createCalendarClient>;

/** The GET request `@calendar/client` sends for one call (its batch link), captured without a server. */
async function captureTrpc(call: (client: Client) => Promise<unknown>): Promise<string> {
  let captured: string | undefined;
  const client = createCalendarClient({
    url: "http://capture.invalid",
    fetch: async (input) => {
      captured = String(input instanceof Request ? input.url : input);
      throw new Error("captured");
    },
  });
  await call(client).catch(() => undefined);
  if (!captured) throw new Error("The client sent no request.");
  const url = new URL(captured);
  return `${url.pathname}${url.search}`;
}

async function trpcRotating<T>(items: readonly T[], call: (client: Client, item: T) => Promise<unknown>) {
  const paths: string[] = [];
  for (const item of items) paths.push(await captureTrpc((client) => call(client, item)));
  return { method: "GET" as const, ...rotating(paths, (path) => path) };
}

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

export async function readScenarios(fixtures: Fixtures): Promise<ReadScenario[]> {
  const filter = {
    categories: [fixtures.category],
    tags: [fixtures.tag],
    start_date: day(0),
    end_date: day(182),
  };
  const filtered = `categories[]=${fixtures.category}&tags[]=${fixtures.tag}&start_date=${filter.start_date}&end_date=${filter.end_date}`;
  const ids = fixtures.events.map((event) => event.id);
  const slugs = fixtures.events.map((event) => event.slug);
  return [
    {
      name: "events list (default)",
      rest: { method: "GET", path: `${API}/events` },
      trpc: { method: "GET", path: await captureTrpc((client) => client.events.list.query({})) },
    },
    {
      name: "events list (categories, tags, dates)",
      rest: { method: "GET", path: `${API}/events?${filtered}` },
      trpc: { method: "GET", path: await captureTrpc((client) => client.events.list.query(filter)) },
    },
    { name: "events list (search)", rest: { method: "GET", path: `${API}/events?search=${SEARCH_WORD}` } },
    {
      name: "events list (near a point)",
      rest: {
        method: "GET",
        path: `${API}/events?geoloc_lat=${BENCHMARK_GEO_CENTRE.lat}&geoloc_lng=${BENCHMARK_GEO_CENTRE.lng}`,
      },
    },
    {
      name: "event single (by id)",
      rest: { method: "GET", ...rotating(ids, (id) => `${API}/events/${id}`) },
      trpc: await trpcRotating(ids, (client, id) => client.events.get.query({ id })),
    },
    {
      name: "event single (by slug)",
      rest: { method: "GET", ...rotating(slugs, (slug) => `${API}/events/by-slug/${encodeURIComponent(slug)}`) },
      trpc: await trpcRotating(slugs, (client, slug) => client.events.getBySlug.query({ slug })),
    },
    { name: "venues list (search)", rest: { method: "GET", path: `${API}/venues?search=${VENUE_WORD}` } },
    { name: "categories list", rest: { method: "GET", path: `${API}/categories` } },
  ];
}

/** A weekly series of two years: its first occurrence and 104 more. */
const TWO_YEARS_WEEKLY = ["RRULE:FREQ=WEEKLY;COUNT=105"];

/**
 * `POST /events` as an editor: a new event per request (distinct titles, so slugs never pile up); "series create"
 * makes each one the first of a weekly two-year series (105 occurrences per request).
 */
export function writeScenarios(fixtures: Fixtures): WriteScenario[] {
  let count = 0;
  const body = (extra: { recurrence?: string[] } = {}) => {
    count += 1;
    return JSON.stringify({
      title: `Benchmark event ${process.pid}-${count}`,
      start_date: `${day(30)} 19:00:00`,
      end_date: `${day(30)} 21:00:00`,
      description: "<p>Written by the benchmark.</p>",
      categories: [fixtures.category],
      tags: [fixtures.tag],
      ...extra,
    });
  };
  const creating = (next: () => string): BenchRequest => ({
    method: "POST",
    path: `${API}/events`,
    headers: { authorization: `Bearer ${fixtures.token}`, "content-type": "application/json" },
    body: next(),
    next: () => ({ path: `${API}/events`, body: next() }),
  });
  return [
    { name: "event create", rest: creating(() => body()) },
    { name: "series create", rest: creating(() => body({ recurrence: TWO_YEARS_WEEKLY })) },
  ];
}

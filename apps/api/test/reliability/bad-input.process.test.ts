import { type Provider, restRouter } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { restOperations } from "../../src/rest/operations.ts";
import { databaseFingerprint } from "./support/fingerprint.ts";
import { type FuzzFixture, OPERATIONS } from "./support/fuzz-operations.ts";
import { describeCase, type FuzzCase, fuzzCases, mustFail, problemOf, requestOf } from "./support/fuzz-requests.ts";
import { rawClient } from "./support/http.ts";
import { useServerProcess } from "./support/server-process.ts";

/**
 * Generated bad input for every operation, over REST and tRPC, to the server process (fast-check builds the
 * requests; they are sent concurrently over kept-alive connections). Every answer must be a 2xx or a 4xx in the error envelope, never a
 * 5xx or a stack trace; every request with something invalid in it, and every write without the right to write,
 * must be refused, and all of those together must leave the database exactly as it was.
 *
 * `pnpm test` runs CALENDAR_FUZZ_RUNS (2,000) requests per operation on SQLite; `pnpm test:fuzz` runs more, on
 * both databases. CALENDAR_FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.CALENDAR_FUZZ_RUNS ?? 2_000);
const SEED = Number(process.env.CALENDAR_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const FUZZ_PROVIDERS = (process.env.CALENDAR_FUZZ_PROVIDERS ?? "sqlite")
  .split(",")
  .filter((provider): provider is Provider => (PROVIDERS as readonly string[]).includes(provider));
const CONNECTIONS = 24;
/** Generous: the run takes about a millisecond or two per request on an idle machine. */
const TIME_LIMIT_MS = Math.max(600_000, RUNS * OPERATIONS.length * 15);
const REPORTED_PROBLEMS = 25;

/** The items in a random order that the seed fixes (so the operations run interleaved, and runs replay). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const order = [...items];
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
  for (let index = order.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other] as T, order[index] as T];
  }
  return order;
}

describe("the generated requests", () => {
  it("cover every REST operation of the router", () => {
    const served = restOperations(restRouter).map((operation) => `${operation.method} ${operation.path}`);
    const generated = OPERATIONS.filter((operation) => operation.procedure).flatMap((operation) =>
      operation.methods.map((method) => `${method} ${operation.path}`),
    );
    expect(generated.sort()).toEqual(served.sort());
  });
});

describe.each(FUZZ_PROVIDERS)("bad input (%s)", (provider) => {
  const server = useServerProcess(provider);
  let fixture: FuzzFixture;

  beforeAll(async () => {
    const create = async (path: string, body: Record<string, unknown>) => {
      const response = await fetch(`${server.origin}/cal/events/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.users.administrator.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const created = (await response.json()) as { id: number; slug: string };
      if (response.status !== 201) throw new Error(`Fixture ${path}: ${response.status} ${JSON.stringify(created)}`);
      return { id: created.id, slug: created.slug };
    };
    const category = await create("/categories", { name: "Fuzz Category" });
    const tag = await create("/tags", { name: "Fuzz Tag" });
    const venue = await create("/venues", { venue: "Fuzz Venue", city: "Lyon", password: "venue secret" });
    const organizer = await create("/organizers", { organizer: "Fuzz Organizer", email: "fuzz@example.org" });
    const event = await create("/events", {
      title: "Fuzz Fixture",
      start_date: "2031-06-01 10:00:00",
      end_date: "2031-06-01 12:00:00",
      description: "<p>Fixture</p>",
      password: "event secret",
      image: "https://example.org/fixture.png",
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
      tags: [tag.id],
    });
    // Last, so that its cursor is already at the head of the change feed: the worker queues nothing for it unless a
    // later request commits a change (see databaseFingerprint).
    const webhook = await create("/webhooks", { url: "http://127.0.0.1:9/fuzz", description: "Fuzz webhook" });
    fixture = { event, venue, organizer, category, tag, webhook: { id: webhook.id } };
  });

  it(
    `answers ${RUNS} generated requests per operation with a 2xx or an enveloped 4xx, and refuses every invalid one without a trace in the database`,
    async () => {
      // Printed first, so that a run that fails or hangs halfway can still be replayed.
      console.info(`fuzz (${provider}): seed ${SEED}; replay with CALENDAR_FUZZ_SEED=${SEED}`);
      const tokens = Object.fromEntries(
        Object.entries(server.users).map(([role, user]) => [role, user.token]),
      ) as Record<keyof typeof server.users, string>;
      const cases = OPERATIONS.flatMap((operation, index) =>
        fc.sample(fuzzCases(operation), { numRuns: RUNS, seed: SEED + index }),
      );
      // The refused requests and the reads first, with the database compared around them; then the writes that may
      // succeed (with noise, by users who may write).
      const ordered = shuffled(cases, SEED);
      const unchanging = ordered.filter((fuzzCase) => mustFail(fuzzCase) || !fuzzCase.operation.write);
      const writing = ordered.filter((fuzzCase) => !mustFail(fuzzCase) && fuzzCase.operation.write);

      const client = rawClient(server.origin, CONNECTIONS);
      const problems: string[] = [];
      const statuses: Record<string, number> = {};
      const run = (batch: FuzzCase[]) =>
        client.sendEach(
          batch,
          (fuzzCase) => requestOf(fuzzCase, fixture, tokens),
          (fuzzCase, request, response) => {
            const group = `${Math.floor(response.status / 100)}xx`;
            statuses[group] = (statuses[group] ?? 0) + 1;
            const problem = problemOf(fuzzCase, response);
            if (problem)
              problems.push(`${problem}: ${describeCase(fuzzCase, request)} → ${response.text.slice(0, 300)}`);
          },
        );
      try {
        const before = await databaseFingerprint(server.database.handle);
        await run(unchanging);
        expect(await databaseFingerprint(server.database.handle)).toEqual(before);
        await run(writing);
      } finally {
        client.close();
      }

      const refused = unchanging.filter(mustFail).length;
      const trpc = cases.filter((fuzzCase) => fuzzCase.transport === "trpc").length;
      const restPerOperation = OPERATIONS.map(
        (operation) =>
          cases.filter((fuzzCase) => fuzzCase.operation === operation && fuzzCase.transport === "rest").length,
      );
      console.info(
        `fuzz (${provider}, seed ${SEED}): ${cases.length} requests for ${OPERATIONS.length} operations ` +
          `(${cases.length - trpc} REST, at least ${Math.min(...restPerOperation)} per operation; ${trpc} tRPC); ` +
          `${JSON.stringify(statuses)}; ` +
          `${refused} invalid or unauthorized requests refused with the database unchanged; ${problems.length} problems`,
      );
      expect(problems.slice(0, REPORTED_PROBLEMS), `seed ${SEED}, ${problems.length} problems`).toEqual([]);
      expect(statuses["5xx"] ?? 0).toBe(0);
    },
    TIME_LIMIT_MS,
  );
});

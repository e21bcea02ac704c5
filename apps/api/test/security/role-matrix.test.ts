import type { Role } from "@calendar/core";
import { PROVIDERS, type TestUser } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { type RestResponse, type TestServer, useTestServer } from "../support/server.ts";

/**
 * The capability matrix of docs/behaviour.md, "Roles and capabilities", for every write operation of every resource, over REST and
 * tRPC: who may create, update, delete and force-delete which record. Each cell acts on a record of its own; a
 * refused write must leave its record exactly as it was.
 */

const API = "/cal/events/v1";
type Who = "anonymous" | Role;
const WHO: readonly Who[] = ["anonymous", "subscriber", "contributor", "author", "editor", "administrator"];

type PostKind = "events" | "venues" | "organizers";
type TermKind = "categories" | "tags";
type Whose = "own draft" | "own published" | "others' draft" | "others' published";
const WHOSE: readonly Whose[] = ["own draft", "own published", "others' draft", "others' published"];

type Operation = "create" | "update" | "delete" | "force delete";
type Transport = "REST" | "tRPC";

/** What an answer means in the table: done, or refused with rest_forbidden as 401 or 403. */
type Outcome = "ok" | 401 | 403;

const POST_FIELDS: Record<PostKind, (name: string) => Record<string, unknown>> = {
  events: (name) => ({ title: name, start_date: "2034-01-10 10:00:00", end_date: "2034-01-10 11:00:00" }),
  venues: (name) => ({ venue: name }),
  organizers: (name) => ({ organizer: name }),
};
const TERM_FIELDS = (name: string) => ({ name });

/** Reference 1.4: contributors their own drafts, authors their own posts, editors and administrators all. */
function expectedForPost(who: Who, operation: Operation, whose: Whose): Outcome {
  if (who === "anonymous") return 401;
  if (who === "subscriber") return 403;
  if (operation === "create") return "ok";
  if (operation === "force delete") return who === "administrator" ? "ok" : 403;
  if (who === "editor" || who === "administrator") return "ok";
  if (!whose.startsWith("own")) return 403;
  return who === "author" || whose === "own draft" ? "ok" : 403;
}

/** Terms: editors and administrators only (they are always deleted permanently). */
function expectedForTerm(who: Who): Outcome {
  if (who === "anonymous") return 401;
  return who === "editor" || who === "administrator" ? "ok" : 403;
}

let serial = 0;

function matrixOf(server: TestServer) {
  const users = () => server.users;
  const userOf = (who: Who): TestUser | undefined => (who === "anonymous" ? undefined : users()[who]);

  /** A record for one cell, made by an administrator: owned by `who` (own) or by the administrator (others'). */
  async function recordFor(kind: PostKind, who: Who, whose: Whose): Promise<{ id: number; slug: string }> {
    serial += 1;
    const owner = whose.startsWith("own") ? userOf(who) : users().administrator;
    const response = await server.call(`POST /${kind}`, {
      as: users().administrator,
      body: {
        ...POST_FIELDS[kind](`Matrix ${kind} ${serial}`),
        status: whose.endsWith("draft") ? "draft" : "publish",
        ...(owner ? { author: owner.id } : {}),
      },
      status: 201,
    });
    if (!owner)
      await server.db.$executeRawUnsafe(
        `UPDATE "${tableOf(kind)}" SET "authorId" = NULL WHERE "id" = ${response.body.id}`,
      );
    return { id: response.body.id, slug: response.body.slug };
  }

  async function termFor(kind: TermKind): Promise<number> {
    serial += 1;
    const response = await server.call(`POST /${kind}`, {
      as: users().administrator,
      body: TERM_FIELDS(`Matrix ${kind} ${serial}`),
      status: 201,
    });
    return response.body.id;
  }

  return { userOf, recordFor, termFor };
}

function tableOf(kind: PostKind | TermKind): string {
  return { events: "Event", venues: "Venue", organizers: "Organizer", categories: "Category", tags: "Tag" }[kind];
}

async function rowOf(server: TestServer, kind: PostKind | TermKind, id: number): Promise<unknown> {
  const rows = await server.db.$queryRawUnsafe<unknown[]>(`SELECT * FROM "${tableOf(kind)}" WHERE "id" = ${id}`);
  return JSON.stringify(rows[0] ?? null, (_key, value) => (typeof value === "bigint" ? String(value) : value));
}

/** The outcome of a REST answer, or the unexpected answer itself. */
function restOutcome({ status, body }: RestResponse<unknown>): Outcome | string {
  if (status === 200 || status === 201) return "ok";
  const forbidden = typeof body === "object" && body !== null && "code" in body && body.code === "rest_forbidden";
  if ((status === 401 || status === 403) && forbidden) return status;
  return `${status} ${JSON.stringify(body)}`;
}

async function trpcOutcome(call: Promise<unknown>): Promise<Outcome | string> {
  try {
    await call;
    return "ok";
  } catch (caught) {
    const data = (caught as { data?: { httpStatus?: number; domain?: { code?: string } } }).data;
    if ((data?.httpStatus === 401 || data?.httpStatus === 403) && data.domain?.code === "rest_forbidden") {
      return data.httpStatus;
    }
    return `${data?.httpStatus} ${JSON.stringify(data?.domain)}`;
  }
}

const UPDATE_METHODS = ["POST", "PUT", "PATCH"] as const;

/** One cell of the table: who does what to which record over which transport, and what must come of it. */
interface Cell {
  name: string;
  expected: Outcome;
  /** Makes the cell's record, if it needs one, and returns how to act on it and how to read it back. */
  run(): Promise<{ outcome: Outcome | string; changed: boolean }>;
}

const CONCURRENT_CELLS = 8;

/** Runs the cells a few at a time; returns their results in table order. */
async function runCells(cells: readonly Cell[]) {
  const results: Array<{ outcome: Outcome | string; changed: boolean }> = new Array(cells.length);
  let next = 0;
  const worker = async () => {
    while (next < cells.length) {
      const index = next++;
      results[index] = await (cells[index] as Cell).run();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_CELLS }, worker));
  return results;
}

describe.each(PROVIDERS)("the role matrix of every write operation (%s)", (provider) => {
  const server = useTestServer(provider);

  it("lets each role do exactly what docs/behaviour.md § Roles and capabilities allows, over REST and tRPC, and refused writes change nothing", async () => {
    const matrix = matrixOf(server);
    const cells: Cell[] = [];
    let variant = 0;

    /** A write on a record of its own: the record must be as it was unless the write was allowed. */
    const onRecord = (
      kind: PostKind | TermKind,
      make: () => Promise<{ id: number; slug: string }>,
      act: (target: { id: number; slug: string }) => Promise<Outcome | string>,
    ) => {
      return async () => {
        const target = await make();
        const before = await rowOf(server, kind, target.id);
        const outcome = await act(target);
        return { outcome, changed: (await rowOf(server, kind, target.id)) !== before };
      };
    };
    const created = (act: () => Promise<Outcome | string>) => async () => ({ outcome: await act(), changed: false });

    for (const transport of ["REST", "tRPC"] as const satisfies readonly Transport[]) {
      for (const who of WHO) {
        const user = matrix.userOf(who);
        const rest = (
          method: string,
          path: string,
          request: { body?: Record<string, unknown>; query?: Record<string, string> } = {},
        ) => server.rest(method, path, { ...(user ? { as: user } : {}), ...request });
        const rpc = server.procedures(user);

        for (const kind of ["events", "venues", "organizers"] as const) {
          cells.push({
            name: `${transport} ${who} create ${kind}`,
            expected: expectedForPost(who, "create", "own draft"),
            run: created(async () => {
              serial += 1;
              const body = POST_FIELDS[kind](`Created by ${who} ${serial}`);
              return transport === "REST"
                ? restOutcome(await rest("POST", `${API}/${kind}`, { body }))
                : trpcOutcome(rpc.mutation(`${kind}.create`, body));
            }),
          });
          for (const whose of WHOSE) {
            for (const operation of ["update", "delete"] as const) {
              variant += 1;
              const bySlug = variant % 2 === 0;
              const method = operation === "update" ? (UPDATE_METHODS[variant % 3] ?? "POST") : "DELETE";
              const body = operation === "update" ? { excerpt: "x" } : undefined;
              cells.push({
                name: `${transport} ${who} ${operation} ${whose} ${kind}${transport === "REST" ? ` (${method}${bySlug ? " by slug" : ""})` : ""}`,
                expected: expectedForPost(who, operation, whose),
                run: onRecord(
                  kind,
                  () => matrix.recordFor(kind, who, whose),
                  async (target) => {
                    if (transport === "REST") {
                      const path = bySlug ? `${API}/${kind}/by-slug/${target.slug}` : `${API}/${kind}/${target.id}`;
                      return restOutcome(await rest(method, path, body ? { body } : {}));
                    }
                    const key = bySlug ? { slug: target.slug } : { id: target.id };
                    return trpcOutcome(
                      rpc.mutation(`${kind}.${operation}${bySlug ? "BySlug" : ""}`, { ...key, ...body }),
                    );
                  },
                ),
              });
            }
          }
          cells.push({
            name: `${transport} ${who} force delete ${kind}`,
            expected: expectedForPost(who, "force delete", "others' published"),
            run: onRecord(
              kind,
              () => matrix.recordFor(kind, who, "others' published"),
              async (target) =>
                transport === "REST"
                  ? restOutcome(await rest("DELETE", `${API}/${kind}/${target.id}`, { query: { force: "true" } }))
                  : trpcOutcome(rpc.mutation(`${kind}.delete`, { id: target.id, force: true })),
            ),
          });
        }

        for (const kind of ["categories", "tags"] as const) {
          cells.push({
            name: `${transport} ${who} create ${kind}`,
            expected: expectedForTerm(who),
            run: created(async () => {
              serial += 1;
              const body = TERM_FIELDS(`Term by ${who} ${serial}`);
              return transport === "REST"
                ? restOutcome(await rest("POST", `${API}/${kind}`, { body }))
                : trpcOutcome(rpc.mutation(`${kind}.create`, body));
            }),
          });
          for (const operation of ["update", "delete"] as const) {
            variant += 1;
            const method = operation === "update" ? (UPDATE_METHODS[variant % 3] ?? "POST") : "DELETE";
            const body = operation === "update" ? { description: "x" } : undefined;
            cells.push({
              name: `${transport} ${who} ${operation} ${kind}${transport === "REST" ? ` (${method})` : ""}`,
              expected: expectedForTerm(who),
              run: onRecord(
                kind,
                async () => ({ id: await matrix.termFor(kind), slug: "" }),
                async (target) =>
                  transport === "REST"
                    ? restOutcome(await rest(method, `${API}/${kind}/${target.id}`, body ? { body } : {}))
                    : trpcOutcome(rpc.mutation(`${kind}.${operation}`, { id: target.id, ...body })),
              ),
            });
          }
        }
      }
    }

    const results = await runCells(cells);
    expect(cells.map((cell, index) => `${cell.name}: ${results[index]?.outcome}`)).toEqual(
      cells.map((cell) => `${cell.name}: ${cell.expected}`),
    );
    expect(
      cells.filter((cell, index) => cell.expected !== "ok" && results[index]?.changed).map((cell) => cell.name),
    ).toEqual([]);
  }, 300_000);
});

import { createEventsInBulk, ensureAdmin, readChangeVersion, recountTermEvents } from "@calendar/core";
import { createTestActor, PROVIDERS, testScope } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestRequest, useTestServer } from "../support/server.ts";

const BASE = "/cal/events/v1";
const EVENT = { title: "Versioned", start_date: "2030-05-01 10:00:00", end_date: "2030-05-01 12:00:00" };

describe.each(PROVIDERS)("the calendar change version (%s)", (provider) => {
  const server = useTestServer(provider);
  const asAdmin = (request: RestRequest = {}): RestRequest => ({ ...request, as: server.users.administrator });

  /** How far `write` moved the version. */
  async function advanceOf(write: () => Promise<unknown>): Promise<number> {
    const before = await readChangeVersion(server.db);
    await write();
    return (await readChangeVersion(server.db)) - before;
  }

  /** How far a REST call moved the version, and its status. */
  async function restAdvance(method: string, path: string, request: RestRequest = {}) {
    let status = 0;
    const advance = await advanceOf(async () => {
      status = (await server.rest(method, `${BASE}${path}`, asAdmin(request))).status;
    });
    return { status, advance };
  }

  let category = 0;
  beforeAll(async () => {
    category = (await server.call("POST /categories", asAdmin({ body: { name: "Music" } }))).body.id;
  });

  it("reads the version of a new database as a number", async () => {
    expect(typeof (await readChangeVersion(server.db))).toBe("number");
  });

  it("advances once per event write: create (with an inline venue and tag), update, trash, delete", async () => {
    let id = 0;
    const created = await advanceOf(async () => {
      const body = { ...EVENT, venue: { venue: "Inline hall" }, tags: ["inline tag"], categories: [category] };
      id = (await server.call("POST /events", { ...asAdmin({ body }), status: 201 })).body.id;
    });
    expect(created).toBe(1);
    expect(await restAdvance("POST", `/events/${id}`, { body: { title: "Versioned again" } })).toEqual({
      status: 200,
      advance: 1,
    });
    expect(await restAdvance("DELETE", `/events/${id}`)).toEqual({ status: 200, advance: 1 });
    expect(await restAdvance("DELETE", `/events/${id}`, { query: { force: "true" } })).toEqual({
      status: 200,
      advance: 1,
    });
  });

  it("advances once per venue and organizer write", async () => {
    for (const [plural, name] of [
      ["venues", "venue"],
      ["organizers", "organizer"],
    ] as const) {
      const created = await server.call(`POST /${plural}`, {
        ...asAdmin({ body: { [name]: `${name} x` } }),
        status: 201,
      });
      const id = created.body.id;
      expect(await restAdvance("POST", `/${plural}`, { body: { [name]: `${name} y` } })).toEqual({
        status: 201,
        advance: 1,
      });
      expect(await restAdvance("POST", `/${plural}/${id}`, { body: { description: "changed" } })).toEqual({
        status: 200,
        advance: 1,
      });
      expect(await restAdvance("DELETE", `/${plural}/${id}`)).toEqual({ status: 200, advance: 1 });
      expect(await restAdvance("DELETE", `/${plural}/${id}`, { query: { force: "true" } })).toEqual({
        status: 200,
        advance: 1,
      });
    }
  });

  it("advances once per category and tag write, translations included", async () => {
    for (const plural of ["categories", "tags"] as const) {
      const created = await server.call(`POST /${plural}`, {
        ...asAdmin({ body: { name: `${plural} a` } }),
        status: 201,
      });
      expect(
        await restAdvance("POST", `/${plural}`, {
          body: { name: `${plural} b`, translation_of: created.body.id },
          query: { ml_language: "de" },
        }),
      ).toEqual({ status: 201, advance: 1 });
      expect(await restAdvance("POST", `/${plural}/${created.body.id}`, { body: { description: "d" } })).toEqual({
        status: 200,
        advance: 1,
      });
      expect(await restAdvance("DELETE", `/${plural}/${created.body.id}`, { query: { force: "true" } })).toEqual({
        status: 200,
        advance: 1,
      });
    }
  });

  it("advances once for a bulk creation, a recount and the administrator's role", async () => {
    const actor = await createTestActor(server.db, `bulk-${provider}`, "administrator");
    const scope = testScope(server.database, actor);
    expect(await advanceOf(() => createEventsInBulk(scope, [EVENT, { ...EVENT, title: "Second" }]))).toBe(1);
    expect(await advanceOf(() => recountTermEvents(server.db))).toBe(1);
    expect(await advanceOf(() => ensureAdmin(server.db, `token-${provider}-0123456789abcdef`))).toBe(1);
  });

  it("leaves the version as it was when a write fails or is rolled back", async () => {
    const event = await server.call("POST /events", asAdmin({ body: EVENT }));
    await server.call("DELETE /events/{id}", { ...asAdmin(), params: { id: event.body.id } });
    // The trash statement runs and finds the event there already: the transaction rolls back (410).
    expect(await restAdvance("DELETE", `/events/${event.body.id}`)).toEqual({ status: 410, advance: 0 });
    expect(await restAdvance("POST", "/events", { body: { ...EVENT, venue: [999_999] } })).toEqual({
      status: 400,
      advance: 0,
    });
    expect(await restAdvance("POST", "/categories", { body: { name: "Music" } })).toEqual({ status: 400, advance: 0 });
    const anonymous = await advanceOf(() => server.rest("POST", `${BASE}/events`, { body: EVENT }));
    expect(anonymous).toBe(0);
    const actor = await createTestActor(server.db, `bulk-fail-${provider}`, "administrator");
    await expect(
      advanceOf(() => createEventsInBulk(testScope(server.database, actor), [EVENT, { ...EVENT, author: 999_999 }])),
    ).rejects.toThrow();
    expect(await advanceOf(async () => undefined)).toBe(0);
  });

  it("gives concurrent writes distinct, consecutive versions", async () => {
    const before = await readChangeVersion(server.db);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        server.rest("POST", `${BASE}/events`, asAdmin({ body: { ...EVENT, title: `Concurrent ${index}` } })),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201));
    expect((await readChangeVersion(server.db)) - before).toBe(8);
  });
});

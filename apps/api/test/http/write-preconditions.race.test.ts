import { createUsersByRole, PROVIDERS, type TestUser, useTestDatabase } from "@calendar/core/testing";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/server.ts";

const API = "/cal/events/v1";

describe.each(PROVIDERS)("a write landing between the If-Match check and the guarded write (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let server: FastifyInstance;
  let editor: TestUser;

  beforeAll(async () => {
    server = await buildServer({ site: { timezone: "UTC" }, bodyLimit: 1024 * 1024, handle: database.current.handle });
    // Runs after the precondition's check and before the procedure: the race, made certain.
    server.addHook("preHandler", async (request) => {
      const title = request.headers["x-racing-title"];
      if (typeof title !== "string") return;
      const raced = await server.inject({
        method: "PATCH",
        url: request.url.split("?")[0] ?? "",
        headers: { authorization: `Bearer ${editor.token}` },
        payload: { title },
      });
      expect(raced.statusCode).toBe(200);
    });
    await server.ready();
    editor = (await createUsersByRole(database.current.handle.db)).editor;
  });
  afterAll(() => server.close());

  async function send(method: string, url: string, headers: Record<string, string> = {}, payload?: object) {
    const response = await server.inject({
      method: method as "GET",
      url,
      headers: { authorization: `Bearer ${editor.token}`, ...headers },
      ...(payload ? { payload } : {}),
    });
    return { status: response.statusCode, etag: String(response.headers.etag), body: response.json() };
  }

  it("refuses the guarded write with 412 inside its transaction: the racing write stays, nothing else is written", async () => {
    const created = await send(
      "POST",
      `${API}/events`,
      {},
      {
        title: "Raced night",
        start_date: "2030-06-01 20:00:00",
        end_date: "2030-06-01 22:00:00",
      },
    );
    const path = `${API}/events/${created.body.id}`;
    const currentVersion = async () =>
      (await database.current.handle.db.changeVersion.findUniqueOrThrow({ where: { id: 1 } })).version;
    for (const [method, payload] of [
      ["PATCH", { cost: "99" }],
      ["DELETE", undefined],
    ] as const) {
      const { etag } = await send("GET", path);
      const refused = await send(method, path, { "if-match": etag, "x-racing-title": `Raced by ${method}` }, payload);
      expect([refused.status, refused.body]).toEqual([
        412,
        { code: "rest_precondition_failed", message: expect.stringContaining("changed"), data: { status: 412 } },
      ]);
      const row = await database.current.handle.db.event.findUniqueOrThrow({ where: { id: created.body.id } });
      expect([row.title, row.cost, row.status]).toEqual([`Raced by ${method}`, "", "publish"]);
      // The refused write advanced nothing: the last version is the racing write's.
      const changes = await database.current.handle.db.change.findMany({ where: { version: await currentVersion() } });
      expect(changes.map((change) => [change.type, change.recordId, change.action])).toEqual([
        ["event", created.body.id, "updated"],
      ]);
    }
    const { etag } = await send("GET", path);
    const written = await send("PATCH", path, { "if-match": etag }, { cost: "7" });
    expect([written.status, written.body.cost]).toEqual([200, "7"]);
  });
});

import { syncChanges } from "@calendar/client";
import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestRequest, useTestServer } from "../support/server.ts";

const BASE = "/cal/events/v1";
const EVENT = { title: "Feed", start_date: "2030-05-01 10:00:00", end_date: "2030-05-01 12:00:00" };

interface Change {
  type: string;
  id: number;
  action: string;
  language: string;
  modified_utc: string;
  version: number;
}

describe.each(PROVIDERS)("the change feed (%s)", (provider) => {
  const server = useTestServer(provider);
  const asAdmin = (request: RestRequest = {}): RestRequest => ({ ...request, as: server.users.administrator });

  async function tokenNow(): Promise<string> {
    const response = await server.rest("GET", `${BASE}/changes`);
    expect(response.status).toBe(200);
    return response.body.next_token;
  }

  /** The changes since `since` as `[type, id, action]`, as the given caller sees them. */
  async function feed(since: string, request: RestRequest = {}, path = `${BASE}/changes`) {
    const response = await server.rest("GET", path, { ...request, query: { since, ...(request.query as object) } });
    expect(response.status).toBe(200);
    return (response.body.changes as Change[]).map((change) => [change.type, change.id, change.action]);
  }

  async function createEvent(body: Record<string, unknown> = {}): Promise<number> {
    const response = await server.rest("POST", `${BASE}/events`, asAdmin({ body: { ...EVENT, ...body } }));
    expect(response.status).toBe(201);
    return response.body.id;
  }

  let start = "";
  beforeAll(async () => {
    start = await tokenNow();
  });

  it("answers a token for now and no changes without since", async () => {
    const response = await server.rest("GET", `${BASE}/changes`);
    expect(response.body).toEqual({ changes: [], next_token: expect.any(String), has_more: false });
  });

  it("reports a created, then updated, then trashed, then deleted event, folded since the token", async () => {
    const token = await tokenNow();
    const id = await createEvent();
    const afterCreate = await server.rest("GET", `${BASE}/changes`, { query: { since: token } });
    expect(afterCreate.body).toEqual({
      changes: [
        {
          type: "event",
          id,
          action: "created",
          language: "en",
          modified_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
          version: expect.any(Number),
        },
      ],
      next_token: expect.any(String),
      has_more: false,
    });
    const second = afterCreate.body.next_token;
    await server.rest("POST", `${BASE}/events/${id}`, asAdmin({ body: { title: "Feed renamed" } }));
    expect(await feed(second)).toEqual([["event", id, "updated"]]);
    expect(await feed(token)).toEqual([["event", id, "created"]]);
    await server.rest("DELETE", `${BASE}/events/${id}`, asAdmin());
    expect(await feed(second)).toEqual([["event", id, "deleted"]]);
    expect(await feed(second, asAdmin())).toEqual([["event", id, "trashed"]]);
    await server.rest("DELETE", `${BASE}/events/${id}`, asAdmin({ query: { force: "true" } }));
    expect(await feed(second, asAdmin())).toEqual([["event", id, "deleted"]]);
    expect(await feed(await tokenNow())).toEqual([]);
  });

  it("shows anonymous callers published, unprotected records only, and visibility changes as created or deleted", async () => {
    const token = await tokenNow();
    const draft = await createEvent({ status: "draft" });
    const locked = await createEvent({ password: "secret" });
    expect(await feed(token)).toEqual([]);
    expect(await feed(token, asAdmin())).toEqual([
      ["event", draft, "created"],
      ["event", locked, "created"],
    ]);
    const middle = await tokenNow();
    await server.rest("POST", `${BASE}/events/${draft}`, asAdmin({ body: { status: "publish" } }));
    expect(await feed(middle)).toEqual([["event", draft, "created"]]);
    expect(await feed(middle, asAdmin())).toEqual([["event", draft, "updated"]]);
    const published = await tokenNow();
    await server.rest("POST", `${BASE}/events/${draft}`, asAdmin({ body: { status: "draft" } }));
    expect(await feed(published)).toEqual([["event", draft, "deleted"]]);
    expect(await feed(published, asAdmin())).toEqual([["event", draft, "updated"]]);
    expect(await feed(published, { as: server.users.subscriber })).toEqual([["event", draft, "deleted"]]);
  });

  it("reports venues, organizers, categories and tags, and filters by type", async () => {
    const doomed = (await server.rest("POST", `${BASE}/tags`, asAdmin({ body: { name: "Feed doomed" } }))).body.id;
    const token = await tokenNow();
    const venue = (await server.rest("POST", `${BASE}/venues`, asAdmin({ body: { venue: "Feed hall" } }))).body.id;
    const organizer = (await server.rest("POST", `${BASE}/organizers`, asAdmin({ body: { organizer: "Feed org" } })))
      .body.id;
    const category = (await server.rest("POST", `${BASE}/categories`, asAdmin({ body: { name: "Feed cat" } }))).body.id;
    const tag = (await server.rest("POST", `${BASE}/tags`, asAdmin({ body: { name: "Feed tag" } }))).body.id;
    await server.rest("DELETE", `${BASE}/tags/${doomed}`, asAdmin({ query: { force: "true" } }));
    // A record created and deleted since the token was never seen: it is left out.
    await server.rest("DELETE", `${BASE}/tags/${tag}`, asAdmin({ query: { force: "true" } }));
    expect(await feed(token)).toEqual([
      ["venue", venue, "created"],
      ["organizer", organizer, "created"],
      ["category", category, "created"],
      ["tag", doomed, "deleted"],
    ]);
    expect(await feed(token, { query: { types: "venue,category" } })).toEqual([
      ["venue", venue, "created"],
      ["category", category, "created"],
    ]);
  });

  it("pages with per_page and has_more, and the next token continues where the page ended", async () => {
    const token = await tokenNow();
    const ids = [await createEvent(), await createEvent(), await createEvent()];
    const first = await server.rest("GET", `${BASE}/changes`, { query: { since: token, per_page: 2 } });
    expect(first.body.has_more).toBe(true);
    expect(first.body.changes.map((change: Change) => change.id)).toEqual(ids.slice(0, 2));
    const second = await server.rest("GET", `${BASE}/changes`, {
      query: { since: first.body.next_token, per_page: 2 },
    });
    expect(second.body.has_more).toBe(false);
    expect(second.body.changes.map((change: Change) => change.id)).toEqual(ids.slice(2));
  });

  it("filters by ml_language and answers under a language prefix", async () => {
    const token = await tokenNow();
    const german = (await server.rest("POST", `${BASE}/events`, asAdmin({ body: EVENT, query: { ml_language: "de" } })))
      .body.id;
    const english = await createEvent();
    expect(await feed(token, { query: { ml_language: "de" } })).toEqual([["event", german, "created"]]);
    expect(await feed(token, {}, `/de${BASE}/changes`)).toEqual([
      ["event", german, "created"],
      ["event", english, "created"],
    ]);
  });

  it("refuses a malformed token with 400 naming since, and an expired one with 410", async () => {
    const malformed = await server.rest("GET", `${BASE}/changes`, { query: { since: "not-a-token" } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      code: "rest_invalid_param",
      data: { status: 400, params: { since: expect.any(String) } },
    });
    const old = Buffer.from(`v1.0.${Math.floor(Date.now() / 1000) - 31 * 86_400}`).toString("base64url");
    const expired = await server.rest("GET", `${BASE}/changes`, { query: { since: old } });
    expect(expired.status).toBe(410);
    expect(expired.body).toEqual({
      code: "rest_sync_token_expired",
      message: expect.any(String),
      data: { status: 410 },
    });
    const bad = await server.rest("GET", `${BASE}/changes`, { query: { since: await tokenNow(), per_page: 1001 } });
    expect(bad.status).toBe(400);
  });

  it("serves changes.list over tRPC, and syncChanges pages through all of them", async () => {
    const token = await tokenNow();
    const ids = [await createEvent(), await createEvent(), await createEvent()];
    const page = await server.client().changes.list.query({ since: token, per_page: 1 });
    expect(page.changes.map((change) => change.id)).toEqual([ids[0]]);
    const synced = await syncChanges(server.client(), token, { per_page: 1 });
    expect(synced.changes.map((change) => [change.id, change.action])).toEqual(ids.map((id) => [id, "created"]));
    expect(await feed(synced.nextToken)).toEqual([]);
    expect((await syncChanges(server.client())).changes).toEqual([]);
    expect(start).not.toBe("");
  });
});

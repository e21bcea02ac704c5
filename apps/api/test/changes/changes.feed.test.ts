import { syncChanges } from "@calendar/client";
import { PROVIDERS, type TestUser } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestRequest, useTestServer } from "../support/server.ts";

const BASE = "/cal/events/v1";
const EVENT = { title: "Feed", start_date: "2030-05-01 10:00:00", end_date: "2030-05-01 12:00:00" };

describe.each(PROVIDERS)("the change feed (%s)", (provider) => {
  const server = useTestServer(provider);
  const admin = () => server.users.administrator;
  /** A page of the feed, which must be answered 200. */
  const changes = (request: RestRequest = {}, base = BASE) =>
    server.call("GET /changes", { ...request, base, status: 200 });

  async function tokenNow(): Promise<string> {
    return (await changes()).body.next_token;
  }

  /** The changes since `since` as `[type, id, action]`, as the given caller sees them. */
  async function feed(
    since: string,
    { as, query }: { as?: TestUser; query?: Record<string, string> } = {},
    base = BASE,
  ) {
    const response = await changes({ as, query: { since, ...query } }, base);
    return response.body.changes.map((change) => [change.type, change.id, change.action]);
  }

  async function createEvent(body: Record<string, unknown> = {}): Promise<number> {
    return (await server.call("POST /events", { status: 201, as: admin(), body: { ...EVENT, ...body } })).body.id;
  }

  let start = "";
  beforeAll(async () => {
    start = await tokenNow();
  });

  it("answers a token for now and no changes without since", async () => {
    const response = await changes();
    expect(response.body).toEqual({ changes: [], next_token: expect.any(String), has_more: false });
  });

  it("reports a created, then updated, then trashed, then deleted event, folded since the token", async () => {
    const token = await tokenNow();
    const id = await createEvent();
    const afterCreate = await changes({ query: { since: token } });
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
    const params = { id };
    await server.call("POST /events/{id}", { params, as: admin(), body: { title: "Feed renamed" } });
    expect(await feed(second)).toEqual([["event", id, "updated"]]);
    expect(await feed(token)).toEqual([["event", id, "created"]]);
    await server.call("DELETE /events/{id}", { as: admin(), params });
    expect(await feed(second)).toEqual([["event", id, "deleted"]]);
    expect(await feed(second, { as: admin() })).toEqual([["event", id, "trashed"]]);
    await server.call("DELETE /events/{id}", { params, as: admin(), query: { force: "true" } });
    expect(await feed(second, { as: admin() })).toEqual([["event", id, "deleted"]]);
    expect(await feed(await tokenNow())).toEqual([]);
  });

  it("shows anonymous callers published, unprotected records only, and visibility changes as created or deleted", async () => {
    const token = await tokenNow();
    const draft = await createEvent({ status: "draft" });
    const locked = await createEvent({ password: "secret" });
    expect(await feed(token)).toEqual([]);
    expect(await feed(token, { as: admin() })).toEqual([
      ["event", draft, "created"],
      ["event", locked, "created"],
    ]);
    const middle = await tokenNow();
    await server.call("POST /events/{id}", { params: { id: draft }, as: admin(), body: { status: "publish" } });
    expect(await feed(middle)).toEqual([["event", draft, "created"]]);
    expect(await feed(middle, { as: admin() })).toEqual([["event", draft, "updated"]]);
    const published = await tokenNow();
    await server.call("POST /events/{id}", { params: { id: draft }, as: admin(), body: { status: "draft" } });
    expect(await feed(published)).toEqual([["event", draft, "deleted"]]);
    expect(await feed(published, { as: admin() })).toEqual([["event", draft, "updated"]]);
    expect(await feed(published, { as: server.users.subscriber })).toEqual([["event", draft, "deleted"]]);
  });

  it("reports venues, organizers, categories and tags, and filters by type", async () => {
    const doomed = (await server.call("POST /tags", { as: admin(), body: { name: "Feed doomed" } })).body.id;
    const token = await tokenNow();
    const venue = (await server.call("POST /venues", { as: admin(), body: { venue: "Feed hall" } })).body.id;
    const organizer = (await server.call("POST /organizers", { as: admin(), body: { organizer: "Feed org" } })).body.id;
    const category = (await server.call("POST /categories", { as: admin(), body: { name: "Feed cat" } })).body.id;
    const tag = (await server.call("POST /tags", { as: admin(), body: { name: "Feed tag" } })).body.id;
    const forceDelete = (id: number) =>
      server.call("DELETE /tags/{id}", { params: { id }, as: admin(), query: { force: "true" } });
    await forceDelete(doomed);
    // A record created and deleted since the token was never seen: it is left out.
    await forceDelete(tag);
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
    const first = await changes({ query: { since: token, per_page: 2 } });
    expect(first.body.has_more).toBe(true);
    expect(first.body.changes.map((change) => change.id)).toEqual(ids.slice(0, 2));
    const second = await changes({ query: { since: first.body.next_token, per_page: 2 } });
    expect(second.body.has_more).toBe(false);
    expect(second.body.changes.map((change) => change.id)).toEqual(ids.slice(2));
  });

  it("filters by ml_language and answers under a language prefix", async () => {
    const token = await tokenNow();
    const german = (await server.call("POST /events", { as: admin(), body: EVENT, query: { ml_language: "de" } })).body
      .id;
    const english = await createEvent();
    expect(await feed(token, { query: { ml_language: "de" } })).toEqual([["event", german, "created"]]);
    expect(await feed(token, {}, `/de${BASE}`)).toEqual([
      ["event", german, "created"],
      ["event", english, "created"],
    ]);
  });

  it("refuses a malformed token with 400 naming since, and an expired one with 410", async () => {
    const malformed = await server.fail("GET /changes", 400, { query: { since: "not-a-token" } });
    expect(malformed.body).toMatchObject({
      code: "rest_invalid_param",
      data: { status: 400, params: { since: expect.any(String) } },
    });
    const old = Buffer.from(`v1.0.${Math.floor(Date.now() / 1000) - 31 * 86_400}`).toString("base64url");
    const expired = await server.fail("GET /changes", 410, { query: { since: old } });
    expect(expired.body).toEqual({
      code: "rest_sync_token_expired",
      message: expect.any(String),
      data: { status: 410 },
    });
    const bad = await server.fail("GET /changes", 400, { query: { since: await tokenNow(), per_page: 1001 } });
    expect(bad.body).toMatchObject({ code: "rest_invalid_param", data: { params: { per_page: expect.any(String) } } });
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

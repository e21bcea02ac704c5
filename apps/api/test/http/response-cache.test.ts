import type { RouterOutputs } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { eventsOf } from "../events/support.ts";
import { getWithHost } from "../support/raw-http.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
const YEAR = "start_date=2030-01-01&end_date=2030-12-31";

type EventList = RouterOutputs["events"]["list"];

describe.each(PROVIDERS)("the shared response cache (%s)", (provider) => {
  const server = useTestServer(provider, { cacheBytes: 1024 * 1024 });

  it("answers repeated anonymous reads from the cache until a write advances the change version", async () => {
    const as = server.users.editor;
    const { id } = await eventsOf(server).create(
      { title: "Cached night", start_date: "2030-04-01 20:00:00", end_date: "2030-04-01 22:00:00" },
      as,
    );
    const read = (request: { as?: typeof as } = {}) => server.call("GET /events/{id}", { params: { id }, ...request });
    const firstListed = async () => (await server.call("GET /events", { query: YEAR })).body.events[0]?.title;
    const first = await read();
    expect([first.body.title, await firstListed()]).toEqual(["Cached night", "Cached night"]);
    // Changed behind the services' back: the change version stays, so the cached answers stay.
    await server.db.event.update({ where: { id }, data: { title: "Changed quietly" } });
    const cached = await read();
    expect([cached.body.title, cached.headers.get("etag")]).toEqual(["Cached night", first.headers.get("etag")]);
    expect(await firstListed()).toBe("Cached night");
    const head = await fetch(`${server.origin}${API}/events/${id}`, {
      method: "HEAD",
      headers: { "accept-encoding": "identity" },
    });
    expect([head.status, head.headers.get("content-length")]).toEqual([200, String(Buffer.byteLength(first.text))]);
    const revalidated = await server.rest("GET", `${API}/events/${id}`, {
      headers: { "if-none-match": first.headers.get("etag") ?? "" },
    });
    expect(revalidated.status).toBe(304);
    // Callers with credentials are never answered from it.
    expect((await read({ as })).body.title).toBe("Changed quietly");
    const refused = await server.rest("PATCH", `${API}/tags/999999`, { as, body: { name: "x" } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await read()).body.title).toBe("Cached night");
    await server.call("POST /tags", { as, body: { name: "Any write" } });
    const fresh = await server.call("GET /events/{id}", {
      params: { id },
      headers: { "if-none-match": first.headers.get("etag") ?? "" },
      status: 200,
    });
    expect(fresh.body.title).toBe("Changed quietly");
    expect(await firstListed()).toBe("Changed quietly");
  });

  it("keeps the answer it rendered for a revalidation it answered 304, and serves it to the next reader", async () => {
    const as = server.users.editor;
    const venue = await server.call("POST /venues", { as, body: { venue: "Revalidated hall" } });
    const params = { id: venue.body.id };
    const etag = (await server.call("GET /venues/{id}", { params })).headers.get("etag") ?? "";
    // Another record changes: the cached venue is stale by version, not by content.
    await server.call("POST /tags", { as, body: { name: "Unrelated write" } });
    const revalidated = await server.rest("GET", `${API}/venues/${params.id}`, { headers: { "if-none-match": etag } });
    expect(revalidated.status).toBe(304);
    await server.db.venue.update({ where: { id: params.id }, data: { name: "Renamed quietly" } });
    const next = await server.call("GET /venues/{id}", { params, status: 200 });
    expect([next.body.venue, next.headers.get("etag")]).toEqual(["Revalidated hall", etag]);
  });

  it("keys answers by the origin their links were built from, so a forged Host never reaches other clients", async () => {
    const forged = await getWithHost<EventList>(server.origin, `${API}/events?${YEAR}`, "evil.example");
    expect(forged.rest_url).toMatch(/^http:\/\/evil\.example\//);
    const honest = await server.call("GET /events", { query: YEAR });
    expect(honest.body.rest_url.startsWith(`${server.origin}/`)).toBe(true);
    const forgedAgain = await getWithHost<EventList>(server.origin, `${API}/events?${YEAR}`, "evil.example");
    expect(forgedAgain.rest_url).toMatch(/^http:\/\/evil\.example\//);
  });
});

describe("the shared response cache turned off", () => {
  const server = useTestServer("sqlite", { cacheBytes: 0 });

  it("reads the database on every request", async () => {
    const created = await server.call("POST /venues", { as: server.users.editor, body: { venue: "Loud hall" } });
    const nameNow = async () => (await server.call("GET /venues/{id}", { params: { id: created.body.id } })).body.venue;
    expect(await nameNow()).toBe("Loud hall");
    await server.db.venue.update({ where: { id: created.body.id }, data: { name: "Quiet hall" } });
    expect(await nameNow()).toBe("Quiet hall");
  });
});

import { PROVIDERS, type TestUser } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { eventsOf } from "../events/support.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
const YEAR = "start_date=2030-01-01&end_date=2030-12-31";

describe.each(PROVIDERS)("ETags of lists, the index and the document from the change version (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);

  function createEvent(title: string) {
    return events.create(
      { title, start_date: "2030-08-01 20:00:00", end_date: "2030-08-01 22:00:00" },
      server.users.editor,
    );
  }

  /** Any write: it advances the change version. */
  const writeElsewhere = (name: string) => server.call("POST /tags", { as: server.users.editor, body: { name } });

  it("answers a list's If-None-Match 304 without rendering it until a write advances the version", async () => {
    const event = await createEvent("Versioned night");
    const first = await server.call("GET /events", { query: YEAR });
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^W\/"v\d+\./);
    // Changed behind the services' back: the version stays, so the list is not rendered again.
    await server.db.event.update({ where: { id: event.id }, data: { title: "Quietly renamed" } });
    const revalidated = await server.rest("GET", `${API}/events`, {
      query: YEAR,
      headers: { "if-none-match": etag },
    });
    expect([revalidated.status, revalidated.text, revalidated.headers.get("etag")]).toEqual([304, "", etag]);
    expect([revalidated.headers.get("cache-control"), revalidated.headers.get("vary")]).toEqual([
      first.headers.get("cache-control"),
      first.headers.get("vary"),
    ]);
    const head = await fetch(`${server.origin}${API}/events?${YEAR}`, {
      method: "HEAD",
      headers: { "if-none-match": etag },
    });
    expect([head.status, head.headers.get("etag")]).toEqual([304, etag]);
    await writeElsewhere("Any write");
    const fresh = await server.call("GET /events", { query: YEAR, headers: { "if-none-match": etag }, status: 200 });
    expect(fresh.body.events[0]?.title).toBe("Quietly renamed");
    expect(fresh.headers.get("etag")).not.toBe(etag);
  });

  it("gives each representation and caller a tag of its own", async () => {
    await createEvent("Shared night");
    const tagOf = async (path: string, headers: Record<string, string> = {}, as?: TestUser) =>
      (await server.rest("GET", path, { headers, as })).headers.get("etag");
    const anonymous = await tagOf(`${API}/events?${YEAR}`);
    const others = [
      await tagOf(`${API}/events?${YEAR}`, {}, server.users.author),
      await tagOf(`/de${API}/events?${YEAR}`),
      await tagOf(`${API}/events?${YEAR}&per_page=1`),
      await tagOf(`${API}/venues?${YEAR}`),
      await tagOf(`${API}/doc`),
      await tagOf(`${API}/doc`, { accept: "text/html" }),
    ];
    expect(new Set([anonymous, ...others]).size).toBe(others.length + 1);
    // A caller with credentials is not answered 304 with another caller's tag, nor before its credentials are checked.
    const ifAnonymousTag = { "if-none-match": anonymous ?? "" };
    await server.call("GET /events", { query: YEAR, as: server.users.author, headers: ifAnonymousTag, status: 200 });
    await server.fail("GET /events", 401, {
      query: YEAR,
      as: { authorization: "Bearer wrong" },
      headers: ifAnonymousTag,
    });
    const document = await server.rest("GET", `${API}/doc`, { headers: { accept: "text/html" } });
    const page = await server.rest("GET", `${API}/doc`, {
      headers: { accept: "text/html", "if-none-match": document.headers.get("etag") ?? "" },
    });
    expect([page.status, page.headers.get("vary")]).toEqual([304, document.headers.get("vary")]);
  });

  it("keeps the hash of the body for answers that move with the clock", async () => {
    for (const query of ["", "start_date=now", "start_date=2030-01-01", "only_with_upcoming=true"]) {
      const path = query === "only_with_upcoming=true" ? `${API}/venues` : `${API}/events`;
      const { status, headers } = await server.rest("GET", path, { query });
      expect({ query, status, etag: headers.get("etag") }).toEqual({
        query,
        status: 200,
        etag: expect.not.stringMatching(/^W\/"v\d+\./),
      });
    }
  });

  it("keeps an item's tag (the hash of its body) through writes to other records", async () => {
    const event = await createEvent("Steady night");
    const tagNow = async () =>
      (await server.call("GET /events/{id}", { params: { id: event.id } })).headers.get("etag");
    const before = await tagNow();
    await writeElsewhere("Elsewhere");
    expect(await tagNow()).toBe(before);
  });
});

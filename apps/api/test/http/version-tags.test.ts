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

  it("never lets a version tag outlive an answer that moves with the clock: once an event starts, it is revalidated", async () => {
    const startsAt = new Date(Date.now() + 2_000);
    const event = await events.create(
      {
        title: "About to start",
        timezone: "UTC",
        start_date: startsAt.toISOString(),
        end_date: new Date(startsAt.getTime() + 3_600_000).toISOString(),
      },
      server.users.editor,
    );
    // The query, in strict mode so that `now` is not moved to the end of today.
    const query = "start_date=2020-01-01&end_date=2040-01-01&starts_after=now&strict_dates=true";
    const before = await server.call("GET /events", { query });
    const etag = before.headers.get("etag") ?? "";
    const idsOf = (answer: typeof before) => answer.body.events.map(({ id }) => id);
    expect([idsOf(before).includes(event.id), etag]).toEqual([true, expect.not.stringMatching(/^W\/"v/)]);
    while (Date.now() <= startsAt.getTime() + 1_000) await new Promise((resolve) => setTimeout(resolve, 250));
    const revalidated = await server.call("GET /events", { query, headers: { "if-none-match": etag }, status: 200 });
    const plain = await server.call("GET /events", { query });
    const others = idsOf(before).filter((id) => id !== event.id);
    expect([idsOf(revalidated), idsOf(plain)]).toEqual([others, others]);
    expect(plain.headers.get("etag")).not.toBe(etag);
    // The same without strict_dates (the answer moves at midnight) is not version-tagged either.
    const inclusive = await server.rest("GET", `${API}/events`, {
      query: "start_date=2020-01-01&end_date=2040-01-01&starts_after=now",
    });
    expect(inclusive.headers.get("etag")).not.toMatch(/^W\/"v/);
  });

  it.each([
    ["events", "start_date=now&end_date=2040-01-01"],
    ["events", "start_date=2030-01-01&end_date=%2B1%20week"],
    ["events", "start_date=2030-01-01&end_date=2030-12-31&starts_before=tomorrow"],
    ["events", "start_date=2030-01-01&end_date=2030-12-31&ends_after=tomorrow%209am"],
    ["events", "starts_after=2030-01-01&ends_before=next%20wednesday%204pm"],
    ["events", "start_date=2030-01-01"],
    ["events", "end_date=2030-12-31"],
    ["venues", "only_with_upcoming=1"],
    ["organizers", "only_with_upcoming=true"],
  ])("tags %s?%s, which moves with the clock, by its body", async (collection, query) => {
    const { status, headers } = await server.rest("GET", `${API}/${collection}`, { query });
    expect([status, headers.get("etag")]).toEqual([200, expect.not.stringMatching(/^W\/"v\d+\./)]);
  });

  it.each([
    ["events", "start_date=2030-01-01&end_date=2030-12-31"],
    ["events", "start_date=1893456000&end_date=2030-12-31T23:00:00Z"],
    ["events", "start_date=03/04/2030&end_date=2030/12/31"],
    ["events", "starts_after=2030-01-01"],
    ["events", "include=1,2"],
    ["events", "include[]=1&include[]=2&start_date=now"],
    ["venues", "only_with_upcoming=0"],
    ["organizers", ""],
    ["categories", ""],
    ["tags", "hide_empty=false"],
  ])("tags %s?%s, which moves with the data alone, by the change version", async (collection, query) => {
    const { status, headers } = await server.rest("GET", `${API}/${collection}`, { query });
    expect([status, headers.get("etag")]).toEqual([200, expect.stringMatching(/^W\/"v\d+\./)]);
  });

  it("tags a list answered as iCalendar (stamped with the time) by its body", async () => {
    await createEvent("Calendar night");
    const first = await server.rest("GET", `${API}/events`, { query: YEAR, headers: { accept: "text/calendar" } });
    expect([first.status, first.headers.get("content-type"), first.headers.get("etag")]).toEqual([
      200,
      expect.stringContaining("text/calendar"),
      expect.not.stringMatching(/^W\/"v\d+\./),
    ]);
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

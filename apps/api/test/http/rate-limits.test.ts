import type { RouterOutputs } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import type { ApiDocument } from "../rest/api-document.ts";
import { getWithHost } from "../support/raw-http.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
const defaults = loadConfig({});

type EventList = RouterOutputs["events"]["list"];

describe.each(PROVIDERS)("rate limits with the default settings (%s)", (provider) => {
  const server = useTestServer(provider, {
    writesPerMinute: defaults.CALENDAR_RATE_LIMIT,
    authFailuresPerMinute: defaults.CALENDAR_AUTH_FAILURE_LIMIT,
  });

  it("lets an administrator write 500 times within a minute", async () => {
    const as = server.users.administrator;
    const started = Date.now();
    const statuses = new Map<number, number>();
    for (let index = 0; index < 500; index++) {
      const { status } = await server.rest("POST", `${API}/tags`, { as, body: { name: `Bulk ${index}` } });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 201: 500 });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(await server.db.tag.count()).toBe(500);
  }, 120_000);

  it("answers failed authentications over the limit with 429 and Retry-After, never a right token or an anonymous read", async () => {
    const withWrongToken = (index: number, status: number) =>
      server.fail("GET /venues", status, { as: { authorization: `Bearer cal_wrong${index}` } });
    for (let index = 0; index < defaults.CALENDAR_AUTH_FAILURE_LIMIT; index++) await withWrongToken(index, 401);
    const limited = await withWrongToken(99, 429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body).toEqual({
      code: "rest_too_many_requests",
      message: expect.stringContaining("failed authentications"),
      data: { status: 429 },
    });
    const basic = Buffer.from(`${server.users.editor.login}:not-the-token`).toString("base64");
    await server.fail("GET /venues", 429, { as: { authorization: `Basic ${basic}` } });
    const rpc = await fetch(`${server.origin}/trpc/venues.list`, { headers: { authorization: "Bearer cal_wrong" } });
    expect(rpc.status).toBe(429);
    await server.call("GET /venues", { as: server.users.editor, status: 200 });
    await server.call("POST /tags", { as: server.users.editor, body: { name: "Still" }, status: 201 });
    await server.call("GET /venues", { status: 200 });
  });
});

describe("links with CALENDAR_PUBLIC_URL", () => {
  const server = useTestServer("sqlite", { publicUrl: "https://calendar.example.org" });

  it("builds every link from the public origin, whatever Host the request names", async () => {
    for (const host of ["evil.example", "127.0.0.1"]) {
      const body = await getWithHost<EventList>(server.origin, `/de${API}/events`, host);
      expect(body.rest_url).toMatch(/^https:\/\/calendar\.example\.org\/de\/cal\/events\/v1\/events\//);
      const document = await getWithHost<ApiDocument>(server.origin, `${API}/doc`, host);
      expect(document.servers?.[0]?.url).toBe("https://calendar.example.org/cal/events/v1/");
    }
  });
});

describe("links without CALENDAR_PUBLIC_URL", () => {
  const server = useTestServer("sqlite");

  it("builds them from the request's Host, as before", async () => {
    const body = await getWithHost<EventList>(server.origin, `${API}/events`, "other.example");
    expect(body.rest_url).toMatch(/^http:\/\/other\.example\/cal\/events\/v1\/events\//);
  });
});

describe.each(PROVIDERS)("the write rate limit per user (%s)", (provider) => {
  const server = useTestServer(provider, { writesPerMinute: 3 });
  const venueCount = (login: string) => server.db.venue.count({ where: { author: { login } } });

  it("counts a user's writes as one client however its credentials are spelled", async () => {
    const { token, login } = server.users.editor;
    const basic = Buffer.from(`${login}:${token}`).toString("base64");
    const spellings = [`Bearer ${token} v1`, `bearer   ${token}`, `Basic ${basic}`, `Bearer ${token} v2`];
    const statuses = [];
    for (const [index, authorization] of spellings.entries()) {
      const { status } = await server.rest("POST", `${API}/venues`, {
        as: { authorization },
        body: { venue: `V${index}` },
      });
      statuses.push(status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(await venueCount(login)).toBe(3);
  });

  it("counts each call of a tRPC batch, and refuses whole a batch that would pass the limit", async () => {
    const { token, login } = server.users.author;
    const batch = (names: string[]) =>
      fetch(`${server.origin}/trpc/${names.map(() => "venues.create").join(",")}?batch=1`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(Object.fromEntries(names.map((venue, index) => [index, { venue }]))),
      });
    expect((await batch(["A", "B"])).status).toBe(200);
    const refused = await batch(["C", "D"]);
    expect([refused.status, Number(refused.headers.get("retry-after")) > 0]).toEqual([429, true]);
    expect(await refused.json()).toMatchObject({ code: "rest_too_many_requests", data: { status: 429 } });
    expect(await venueCount(login)).toBe(2);
    expect((await batch(["E"])).status).toBe(200);
    expect((await batch(["F"])).status).toBe(429);
    expect(await venueCount(login)).toBe(3);
  });
});

import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import type { RestErrorBody } from "../../src/rest/envelope.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
/** `TRUST_PROXY=true`, as behind the documented nginx. */
const ONE_PROXY = loadConfig({ TRUST_PROXY: "true" }).TRUST_PROXY;
const WRONG = { authorization: "Bearer cal_wrong" };
const LIMIT = 3;

describe.each(PROVIDERS)("write preconditions with wrong credentials (%s)", (provider) => {
  const server = useTestServer(provider, { trustProxy: ONE_PROXY, authFailuresPerMinute: LIMIT });

  it("answer 401 over REST and tRPC, counted for the client the proxy saw, never 412", async () => {
    const { body: venue } = await server.call("POST /venues", {
      as: server.users.editor,
      body: { venue: "Hall" },
      status: 201,
    });
    const from = (client: string, precondition: Record<string, string>) => ({
      "x-forwarded-for": client,
      ...precondition,
    });
    const preconditions: Array<Record<string, string>> = [
      { "if-match": 'W/"stale"' },
      { "if-unmodified-since": "Tue, 01 Jan 2030 00:00:00 GMT" },
      { "if-match": "*" },
    ];
    for (const precondition of preconditions) {
      const answer = await server.rest<RestErrorBody>("POST", `${API}/venues/${venue.id}`, {
        as: WRONG,
        body: { venue: "Taken" },
        headers: from("203.0.113.9", precondition),
      });
      expect([answer.status, answer.body.code]).toEqual([401, "rest_not_logged_in"]);
    }
    const limited = await server.rest("POST", `${API}/venues/${venue.id}`, {
      as: WRONG,
      body: { venue: "Taken" },
      headers: from("203.0.113.9", { "if-match": "*" }),
    });
    expect(limited.status).toBe(429);

    const rpc = await fetch(`${server.origin}/trpc/venues.update`, {
      method: "POST",
      headers: { ...WRONG, ...from("198.51.100.4", { "if-match": "*" }), "content-type": "application/json" },
      body: JSON.stringify({ id: venue.id, venue: "Taken" }),
    });
    expect(rpc.status).toBe(401);
    // The GETs the checks make are the client's: this process's own address was never charged.
    await server.fail("GET /venues", 401, { as: WRONG });
    expect((await server.call("GET /venues/{id}", { params: { id: venue.id } })).body.venue).toBe("Hall");
  });

  it("still hold or fail for right credentials", async () => {
    const as = server.users.editor;
    const { body: venue } = await server.call("POST /venues", { as, body: { venue: "Room" }, status: 201 });
    const stale = await server.rest("POST", `${API}/venues/${venue.id}`, {
      as,
      body: { venue: "Room 2" },
      headers: { "if-match": 'W/"stale"' },
    });
    expect(stale.status).toBe(412);
    const written = await server.rest("POST", `${API}/venues/${venue.id}`, {
      as,
      body: { venue: "Room 2" },
      headers: { "if-match": "*" },
    });
    expect(written.status).toBe(200);
  });
});

describe.each(PROVIDERS)("failed authentications from IPv6 clients (%s)", (provider) => {
  const server = useTestServer(provider, { trustProxy: ONE_PROXY, authFailuresPerMinute: LIMIT });
  const failFrom = (client: string) =>
    server.rest<RestErrorBody>("GET", `${API}/venues`, { as: WRONG, headers: { "x-forwarded-for": client } });

  it("are counted per /64, so rotating through the network does not escape the limit", async () => {
    const statuses = [];
    for (let index = 1; index <= LIMIT + 2; index++) statuses.push((await failFrom(`2001:db8:0:1::${index}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const other = await failFrom("2001:0db8:0000:0001:ffff:1:2:3");
    expect(other.status).toBe(429);
    expect((await failFrom("2001:db8:0:2::1")).status).toBe(401);
    await server.call("GET /venues", { as: server.users.editor, headers: { "x-forwarded-for": "2001:db8:0:1::9" } });
  });
});

describe("failed authentications with CALENDAR_AUTH_FAILURE_IPV6_PREFIX=128", () => {
  const server = useTestServer("sqlite", {
    trustProxy: ONE_PROXY,
    authFailuresPerMinute: 1,
    authFailureIpv6Prefix: loadConfig({ CALENDAR_AUTH_FAILURE_IPV6_PREFIX: "128" }).CALENDAR_AUTH_FAILURE_IPV6_PREFIX,
  });

  it("are counted per address", async () => {
    const failFrom = (client: string) =>
      server.rest("GET", `${API}/venues`, { as: WRONG, headers: { "x-forwarded-for": client } });
    expect((await failFrom("2001:db8::1")).status).toBe(401);
    expect((await failFrom("2001:db8::1")).status).toBe(429);
    expect((await failFrom("2001:db8::2")).status).toBe(401);
  });
});

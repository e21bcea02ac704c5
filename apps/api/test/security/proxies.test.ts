import type { RouterOutputs } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
/** `TRUST_PROXY=true`, as behind the documented nginx. */
const ONE_PROXY = loadConfig({ TRUST_PROXY: "true" }).TRUST_PROXY;

type EventList = RouterOutputs["events"]["list"];

describe.each(PROVIDERS)("behind one trusted proxy that appends to X-Forwarded-For (%s)", (provider) => {
  const server = useTestServer(provider, { trustProxy: ONE_PROXY, authFailuresPerMinute: 3 });
  /** A failed authentication of the client the proxy saw as `client`, whatever the client wrote before it. */
  const failFrom = (client: string, written: string, status: number) =>
    server.fail("GET /venues", status, {
      as: { authorization: "Bearer cal_wrong" },
      headers: { "x-forwarded-for": `${written}, ${client}` },
    });

  it("limits failed authentications by the address the proxy appended, not the one the client wrote", async () => {
    for (let index = 0; index < 3; index++) await failFrom("203.0.113.7", `198.51.100.${index}`, 401);
    const limited = await failFrom("203.0.113.7", "198.51.100.99", 429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body).toEqual({
      code: "rest_too_many_requests",
      message: expect.stringContaining("failed authentications"),
      data: { status: 429 },
    });
    await failFrom("203.0.113.8", "198.51.100.99", 401);
  });
});

describe.each(PROVIDERS)("links behind a trusted proxy without CALENDAR_PUBLIC_URL (%s)", (provider) => {
  const server = useTestServer(provider, { trustProxy: ONE_PROXY, cacheBytes: 1024 * 1024 });
  const path = `${API}/events?start_date=2031-01-01`;

  it("never follow X-Forwarded-Host, over REST and tRPC", async () => {
    const headers = { "x-forwarded-host": "evil.example" };
    const rest = await server.rest<EventList>("GET", path, { headers });
    expect(new URL(rest.body.rest_url).origin).toBe(server.origin);
    const rpc = await fetch(`${server.origin}/trpc/events.list?input=%7B%7D`, { headers });
    const { result } = (await rpc.json()) as { result: { data: EventList } };
    expect(new URL(result.data.rest_url).origin).toBe(server.origin);
  });

  it("take the scheme the proxy forwards, vary on it, and are kept per scheme by the response cache", async () => {
    const httpsOrigin = server.origin.replace(/^http:/, "https:");
    const viaHttps = await server.rest<EventList>("GET", path, { headers: { "x-forwarded-proto": "https" } });
    expect(new URL(viaHttps.body.rest_url).origin).toBe(httpsOrigin);
    expect(viaHttps.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(viaHttps.headers.get("vary")).toBe("Authorization, accept-encoding, X-Forwarded-Proto");
    for (let again = 0; again < 2; again++) {
      const plain = await server.rest<EventList>("GET", path);
      expect(new URL(plain.body.rest_url).origin).toBe(server.origin);
      const https = await server.rest<EventList>("GET", path, { headers: { "x-forwarded-proto": "https" } });
      expect(new URL(https.body.rest_url).origin).toBe(httpsOrigin);
    }
  });
});

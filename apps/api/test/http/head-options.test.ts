import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { eventsOf } from "../events/support.ts";
import { rawExchange } from "../support/raw-http.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
const IDENTITY = { "accept-encoding": "identity" };

/** Every header but the date and the connection's own (fetch closes the connection after a HEAD). */
function headersOf(headers: Headers): Record<string, string> {
  return Object.fromEntries(
    [...headers].filter(([name]) => name !== "date" && name !== "keep-alive" && name !== "connection"),
  );
}

describe.each(PROVIDERS)("HEAD and OPTIONS (%s)", (provider) => {
  const server = useTestServer(provider);

  it("answers HEAD exactly as GET (status and every header, Content-Length of the GET body) with no body", async () => {
    const as = server.users.editor;
    const event = await eventsOf(server).create(
      { title: "Head night", start_date: "2030-05-01 20:00:00", end_date: "2030-05-01 22:00:00" },
      as,
    );
    for (let index = 0; index < 10; index++) {
      await server.call("POST /tags", { as, body: { name: `Tag ${index}` } });
    }
    const webhook = await server.db.webhookSubscription.create({
      data: { url: "https://example.com/hooks", secret: "whsec_test", cursor: 0 },
    });
    const admin = { authorization: `Bearer ${server.users.administrator.token}` };
    const routes: Array<{ path: string; headers?: Record<string, string> }> = [
      { path: API },
      { path: `${API}/doc` },
      { path: `${API}/events?start_date=2030-01-01&end_date=2030-12-31` },
      { path: `/de${API}/events?start_date=2030-01-01&end_date=2030-12-31` },
      { path: `${API}/events/${event.id}` },
      { path: `/fr${API}/events/${event.id}` },
      { path: `${API}/events/by-slug/head-night` },
      { path: `${API}/tags?per_page=3&page=2` },
      { path: `${API}/venues` },
      { path: `${API}/events/999999` },
      { path: `${API}/events?per_page=lots` },
      { path: `${API}/nothing-here` },
      { path: "/elsewhere" },
      { path: "/healthz" },
      { path: `${API}/events/${event.id}`, headers: { authorization: "Bearer wrong-token" } },
      { path: `${API}/events/${event.id}`, headers: { authorization: `Bearer ${as.token}` } },
      { path: `${API}/changes` },
      { path: `${API}/webhooks`, headers: admin },
      { path: `/de${API}/webhooks/${webhook.id}`, headers: admin },
      { path: `${API}/webhooks/${webhook.id}/deliveries`, headers: admin },
      { path: `${API}/webhooks/999999`, headers: admin },
      { path: `${API}/webhooks` },
    ];
    for (const route of routes) {
      const headers = { ...IDENTITY, ...route.headers };
      const get = await fetch(`${server.origin}${route.path}`, { headers });
      const getBody = await get.arrayBuffer();
      const head = await fetch(`${server.origin}${route.path}`, { method: "HEAD", headers });
      expect({ path: route.path, status: head.status, headers: headersOf(head.headers) }).toEqual({
        path: route.path,
        status: get.status,
        headers: headersOf(get.headers),
      });
      expect(Number(head.headers.get("content-length"))).toBe(getBody.byteLength);
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    }
  });

  it("sends no body after a HEAD's headers, also when the HEAD carries a body of its own", async () => {
    const bodies = [
      'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n0\r\n\r\n',
      'Content-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}',
    ];
    for (const body of bodies) {
      const raw = await rawExchange(
        server.origin,
        `HEAD ${API}/events/999999 HTTP/1.1\r\nHost: test\r\n${body}`,
        1_000,
      );
      const [head = "", rest] = raw.split("\r\n\r\n");
      expect(head.split("\r\n")[0]).toBe("HTTP/1.1 404 Not Found");
      expect(head).toMatch(/\r\ncontent-length: \d+/i);
      expect(rest).toBe("");
    }
  });

  it("answers OPTIONS with 204 and the route's methods in Allow, and 404 rest_no_route where nothing is", async () => {
    const cases: Array<[string, string]> = [
      [`${API}/events`, "GET, POST, HEAD, OPTIONS"],
      [`${API}/events/12`, "GET, POST, DELETE, PUT, PATCH, HEAD, OPTIONS"],
      [`/zh-hans${API}/events/by-slug/some-slug`, "GET, POST, DELETE, PUT, PATCH, HEAD, OPTIONS"],
      [`${API}/categories/3`, "GET, POST, DELETE, PUT, PATCH, HEAD, OPTIONS"],
      [API, "GET, HEAD, OPTIONS"],
      [`/de${API}/doc`, "GET, HEAD, OPTIONS"],
      [`${API}/events.ics`, "GET, HEAD, OPTIONS"],
      ["/healthz", "GET, HEAD, OPTIONS"],
      ["/docs", "GET, HEAD, OPTIONS"],
      ["/trpc/events.list", "GET, POST, HEAD, OPTIONS"],
      [`${API}/webhooks`, "GET, POST, HEAD, OPTIONS"],
      [`${API}/webhooks/4`, "GET, POST, DELETE, HEAD, OPTIONS"],
      [`/fr${API}/webhooks/4/rotate-secret`, "POST, OPTIONS"],
      [`${API}/webhooks/4/deliveries`, "GET, HEAD, OPTIONS"],
    ];
    for (const [path, allow] of cases) {
      const { status, headers, text } = await server.rest("OPTIONS", path);
      expect({ path, status, allow: headers.get("allow"), text }).toEqual({ path, status: 204, allow, text: "" });
    }
    for (const path of [`${API}/nothing`, `${API}/events/12/more`, "/elsewhere"]) {
      const { status, body } = await server.rest<RestErrorBody>("OPTIONS", path);
      expect({ path, status, code: body.code }).toEqual({ path, status: 404, code: "rest_no_route" });
    }
  });

  it("answers a CORS preflight with 204 and Allow when CORS is off, instead of 404", async () => {
    const { status, headers } = await server.rest("OPTIONS", `${API}/events`, {
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
    });
    expect([status, headers.get("allow"), headers.get("access-control-allow-origin")]).toEqual([
      204,
      "GET, POST, HEAD, OPTIONS",
      null,
    ]);
  });
});

describe("OPTIONS with CORS on", () => {
  const server = useTestServer("sqlite", { corsOrigins: ["https://app.example"] });

  it("leaves preflights to CORS and answers other OPTIONS with Allow", async () => {
    const preflight = await server.rest("OPTIONS", `${API}/events/3`, {
      headers: { origin: "https://app.example", "access-control-request-method": "PATCH" },
    });
    expect([preflight.status, preflight.headers.get("access-control-allow-origin")]).toEqual([
      204,
      "https://app.example",
    ]);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PATCH");
    const plain = await server.rest("OPTIONS", `${API}/events/3`);
    expect([plain.status, plain.headers.get("allow")]).toEqual([204, "GET, POST, DELETE, PUT, PATCH, HEAD, OPTIONS"]);
  });
});

import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { rawExchange } from "../support/raw-http.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
const TOO_LARGE = { code: "rest_payload_too_large", message: "The request body is too large.", data: { status: 413 } };

function bodyOf(raw: string): unknown {
  return JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4));
}

describe.each(PROVIDERS)("size limits (%s)", (provider) => {
  const server = useTestServer(provider);

  it("refuses a body over the limit with 413 in the envelope, over REST (JSON and form) and tRPC, and stores nothing", async () => {
    const huge = "x".repeat(1024 * 1024 + 1);
    const as = server.users.editor;
    const json = await server.fail("POST /venues", 413, { as, body: { venue: huge } });
    const form = await server.fail("POST /venues", 413, { as, form: { venue: huge } });
    const rpc = await fetch(`${server.origin}/trpc/venues.create`, {
      method: "POST",
      headers: { authorization: `Bearer ${as.token}`, "content-type": "application/json" },
      body: JSON.stringify({ venue: huge }),
    });
    expect([json.status, json.body, form.status, form.body, rpc.status, await rpc.json()]).toEqual([
      413,
      TOO_LARGE,
      413,
      TOO_LARGE,
      413,
      TOO_LARGE,
    ]);
    expect(await server.db.venue.count()).toBe(0);
  });

  it("clamps per_page to 50 on every list", async () => {
    const as = server.users.administrator;
    const made = await Promise.all(
      Array.from({ length: 52 }, (_, index) =>
        server.call("POST /tags", { as, body: { name: `Clamp ${String(index).padStart(2, "0")}` }, status: 201 }),
      ),
    );
    expect(made.map((response) => response.status)).toEqual(made.map(() => 201));
    const tags = await server.call("GET /tags", { query: { per_page: 1000, hide_empty: "false" } });
    expect([
      tags.body.tags.length,
      tags.body.total,
      tags.body.total_pages,
      tags.headers.get("x-wp-totalpages"),
    ]).toEqual([50, 52, 2, "2"]);
    for (const collection of ["events", "venues", "organizers", "categories"] as const) {
      const { status, body } = await server.call(`GET /${collection}`, { query: { per_page: 1000 } });
      expect([collection, status, new URL(body.rest_url).searchParams.get("per_page") ?? "50"]).toEqual([
        collection,
        200,
        "50",
      ]);
    }
  });
});

describe("the request timeout", () => {
  const server = useTestServer("sqlite", { requestTimeout: 1_000 });

  it("answers a client that sends half a body, or half the headers, with 408 in the envelope and closes", async () => {
    const halfBody = await rawExchange(
      server.origin,
      `POST ${API}/venues HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${server.users.editor.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"venue":"Slo',
    );
    const halfHeaders = await rawExchange(server.origin, `GET ${API}/events HTTP/1.1\r\nHost: test\r\nX-Slow: `);
    const expected = {
      code: "rest_request_timeout",
      message: "The request was not received in time.",
      data: { status: 408 },
    };
    for (const raw of [halfBody, halfHeaders]) {
      expect(raw.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
      expect(bodyOf(raw)).toEqual(expected);
    }
    expect(await server.db.venue.count()).toBe(0);
  }, 15_000);

  it("answers a request line or headers over Node's size limit with 431 in the envelope", async () => {
    const raw = await rawExchange(
      server.origin,
      `GET ${API}/events?search=${"a".repeat(20_000)} HTTP/1.1\r\nHost: test\r\n\r\n`,
    );
    expect(raw.split("\r\n")[0]).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(bodyOf(raw)).toEqual({
      code: "rest_headers_too_large",
      message: "The request line or headers are too large.",
      data: { status: 431 },
    });
  });
});

describe("the write rate limit on the calendar's routes", () => {
  const server = useTestServer("sqlite", { writesPerMinute: 2 });

  it("limits each client's writes over REST and tRPC together (429, Retry-After), and never its reads", async () => {
    const as = server.users.author;
    await server.call("POST /venues", { as, body: { venue: "First" }, status: 201 });
    const rpc = await fetch(`${server.origin}/trpc/venues.create`, {
      method: "POST",
      headers: { authorization: `Bearer ${as.token}`, "content-type": "application/json" },
      body: JSON.stringify({ venue: "Second" }),
    });
    expect(rpc.status).toBe(200);
    const limited = await server.fail("POST /venues", 429, { as, body: { venue: "Third" } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ code: "rest_too_many_requests", data: { status: 429 } });
    const limitedRpc = await fetch(`${server.origin}/trpc/venues.create`, {
      method: "POST",
      headers: { authorization: `Bearer ${as.token}`, "content-type": "application/json" },
      body: JSON.stringify({ venue: "Fourth" }),
    });
    expect([limitedRpc.status, Number(limitedRpc.headers.get("retry-after")) > 0]).toEqual([429, true]);
    for (let index = 0; index < 5; index++) await server.call("GET /venues", { as, status: 200 });
    await server.call("POST /venues", { as: server.users.editor, body: { venue: "Other" }, status: 201 });
    expect(await server.db.venue.count()).toBe(3);
  });
});

describe("CORS preflight", () => {
  const allowed = "https://calendar.example";
  const server = useTestServer("sqlite", { corsOrigins: [allowed] });

  /** Every shape of REST path, under every base, with the methods it serves. */
  const shapes: Array<[string, string[]]> = [
    ["", ["GET"]],
    ["/doc", ["GET"]],
    ["/events", ["GET", "POST"]],
    ["/events/12", ["GET", "POST", "PUT", "PATCH", "DELETE"]],
    ["/events/by-slug/a-slug", ["GET", "POST", "PUT", "PATCH", "DELETE"]],
    ["/venues", ["GET", "POST"]],
    ["/venues/12", ["GET", "POST", "PUT", "PATCH", "DELETE"]],
    ["/venues/by-slug/a-slug", ["GET", "POST", "PUT", "PATCH", "DELETE"]],
    ["/organizers/by-slug/a-slug", ["GET", "POST", "PUT", "PATCH", "DELETE"]],
    ["/categories/12", ["GET", "POST", "PUT", "PATCH", "DELETE"]],
    ["/tags", ["GET", "POST"]],
  ];

  it("answers the preflight of every REST path shape and method, under every base, for allowed origins only", async () => {
    const wrong: string[] = [];
    for (const base of ["", "/de", "/fr", "/zh-hans", "/en"]) {
      for (const [shape, methods] of shapes) {
        const path = `${base}${API}${shape}`;
        for (const method of methods) {
          const preflight = (origin: string) =>
            server.rest("OPTIONS", path, {
              headers: {
                origin,
                "access-control-request-method": method,
                "access-control-request-headers": "authorization,content-type",
              },
            });
          const answer = await preflight(allowed);
          const ok =
            answer.status === 204 &&
            answer.headers.get("access-control-allow-origin") === allowed &&
            (answer.headers.get("access-control-allow-methods") ?? "").split(/,\s*/).includes(method) &&
            /authorization/i.test(answer.headers.get("access-control-allow-headers") ?? "") &&
            /content-type/i.test(answer.headers.get("access-control-allow-headers") ?? "");
          if (!ok) wrong.push(`${method} ${path}: ${answer.status} ${JSON.stringify([...answer.headers])}`);
          const refused = await preflight("https://elsewhere.example");
          if (refused.headers.get("access-control-allow-origin") !== null)
            wrong.push(`${method} ${path} allowed elsewhere`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

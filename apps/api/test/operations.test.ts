import { PROVIDERS, TEST_POSTGRES_URL } from "@calendar/core/testing";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { eventsOf } from "./events/support.ts";
import { fixtureClient, fixtureRejection } from "./rest/fixture-client.ts";
import { fixtureRouters } from "./support/fixture-router.ts";
import { useTestServer } from "./support/server.ts";

const WHOAMI = "/cal/events/v1/whoami";

describe.each(PROVIDERS)("health endpoints (%s)", (provider) => {
  const server = useTestServer(provider, { routers: fixtureRouters });

  it("answers liveness and readiness", async () => {
    expect(await server.rest("GET", "/healthz")).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(await server.rest("GET", "/readyz")).toMatchObject({
      status: 200,
      body: { status: "ready", database: provider },
    });
  });
});

async function setConnectionsAllowed(database: string, allowed: boolean): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS ${allowed}`);
    if (!allowed) {
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database]);
    }
  } finally {
    await admin.end();
  }
}

describe("an unavailable PostgreSQL database", () => {
  const server = useTestServer("postgres", { routers: fixtureRouters });
  const UNAVAILABLE = {
    code: "rest_database_unavailable",
    message: "The database is unavailable right now; try again shortly.",
    data: { status: 503 },
  };

  it("answers 503 rest_database_unavailable while it is down, and recovers by itself when it is back", async () => {
    const name = new URL(server.database.url).pathname.slice(1);
    expect((await server.rest("GET", WHOAMI, { as: server.users.editor })).status).toBe(200);
    await setConnectionsAllowed(name, false);
    try {
      const ready = await server.rest("GET", "/readyz");
      expect({ status: ready.status, body: ready.body }).toEqual({ status: 503, body: UNAVAILABLE });
      const rest = await server.rest("GET", WHOAMI, { as: server.users.editor });
      expect({ status: rest.status, body: rest.body }).toEqual({ status: 503, body: UNAVAILABLE });
      const error = await fixtureRejection(fixtureClient(server.origin, server.users.editor).things.whoami.query({}));
      expect(error.data?.httpStatus).toBe(503);
      expect(error.data?.domain.code).toBe("rest_database_unavailable");
    } finally {
      await setConnectionsAllowed(name, true);
    }
    expect((await server.rest("GET", "/readyz")).status).toBe(200);
    const whoami = await server.rest("GET", WHOAMI, { as: server.users.editor });
    expect(whoami.body).toMatchObject({ actor: { login: "editor1" } });
  });
});

describe("an unavailable PostgreSQL database, on the reads that run on the driver itself", () => {
  const server = useTestServer("postgres");

  it("answers a single event with 503 rest_database_unavailable while it is down, and recovers", async () => {
    const name = new URL(server.database.url).pathname.slice(1);
    const body = { title: "Still here", start_date: "2033-06-01 10:00:00", end_date: "2033-06-01 11:00:00" };
    const params = { id: (await eventsOf(server).create(body, server.users.editor)).id };
    await server.call("GET /events/{id}", { params, status: 200 });
    await setConnectionsAllowed(name, false);
    try {
      const down = await server.fail("GET /events/{id}", 503, { params });
      expect(down.body).toEqual({
        code: "rest_database_unavailable",
        message: "The database is unavailable right now; try again shortly.",
        data: { status: 503 },
      });
    } finally {
      await setConnectionsAllowed(name, true);
    }
    expect((await server.call("GET /events/{id}", { params })).body.title).toBe("Still here");
  });
});

describe("CORS", () => {
  const server = useTestServer("sqlite", { routers: fixtureRouters, corsOrigins: ["https://app.example"] });

  it("answers a preflight from an allowed origin", async () => {
    const { status, headers } = await server.rest("OPTIONS", "/cal/events/v1/things", {
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type",
      },
    });
    expect(status).toBe(204);
    expect(headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(headers.get("access-control-allow-methods")).toContain("POST");
    expect(headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });

  it("exposes the total headers to allowed origins and nothing to others", async () => {
    const allowed = await server.rest("GET", "/cal/events/v1/things", { headers: { origin: "https://app.example" } });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(allowed.headers.get("access-control-expose-headers")).toContain("X-WP-Total");
    const other = await server.rest("GET", "/cal/events/v1/things", { headers: { origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("CORS by default", () => {
  const server = useTestServer("sqlite", { routers: fixtureRouters });

  it("allows no cross-origin calls", async () => {
    const { headers } = await server.rest("GET", "/cal/events/v1/things", {
      headers: { origin: "https://app.example" },
    });
    expect(headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("the write rate limit", () => {
  const server = useTestServer("sqlite", { routers: fixtureRouters, writesPerMinute: 3 });

  it("answers 429 with Retry-After after the limit, per client, and never limits reads", async () => {
    const write = (as = server.users.editor) =>
      server.rest("POST", "/cal/events/v1/things", { as, body: { title: "t", start: "now" } });
    for (let i = 0; i < 3; i++) expect((await write()).status).toBe(201);
    const limited = await write();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ code: "rest_too_many_requests", data: { status: 429 } });
    expect((await write(server.users.author)).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await server.rest("GET", "/cal/events/v1/things")).status).toBe(200);
  });
});

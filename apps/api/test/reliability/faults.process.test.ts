import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb, type Provider, sqliteFilePath } from "@calendar/core";
import { PROVIDERS, TEST_POSTGRES_URL, useTestDatabase } from "@calendar/core/testing";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/server.ts";
import { adminQuery } from "../support/postgres.ts";
import { finished, listening, runEntry } from "../support/process.ts";
import { getAcrossShutdown } from "../support/raw-http.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
const ADMIN_TOKEN = "faults-test-admin-token";
const UNAVAILABLE = {
  code: "rest_database_unavailable",
  message: "The database is unavailable right now; try again shortly.",
  data: { status: 503 },
};

interface Outcome {
  index: number;
  status: number | "no answer";
  code?: string;
  id?: number;
}

describe.each(PROVIDERS)("SIGTERM during a burst of writes (%s)", (provider: Provider) => {
  const dir = mkdtempSync(join(tmpdir(), "calendar-shutdown-"));
  const pgName = `calendar_shutdown_${process.pid}`;
  const databaseUrl =
    provider === "sqlite"
      ? `file:${join(dir, "calendar.db")}`
      : Object.assign(new URL(TEST_POSTGRES_URL), { pathname: `/${pgName}` }).toString();
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (provider === "postgres") await adminQuery(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
  });

  it("finishes the writes in flight, refuses the rest, keeps every write it answered 201 whole, and exits 0", async () => {
    const child = runEntry("src/main.ts", [], {
      DATABASE_URL: databaseUrl,
      PORT: "0",
      CALENDAR_ADMIN_TOKEN: ADMIN_TOKEN,
      CALENDAR_RATE_LIMIT: "0",
      LOG_LEVEL: "info",
    });
    const exit = finished(child);
    const origin = await listening(child);
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
    const post = (path: string, body: Record<string, unknown>) =>
      fetch(`${origin}${API}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const venue = (await (await post("/venues", { venue: "Burst Hall" })).json()) as { id: number };
    const category = (await (await post("/categories", { name: "Burst" })).json()) as { id: number };

    // Writers send one write after another until the server stops answering; SIGTERM comes in the middle.
    const outcomes: Outcome[] = [];
    let sent = 0;
    let signalled = false;
    const writer = async () => {
      while (sent < 2_000) {
        const index = sent++;
        try {
          const response = await post("/events", {
            title: `Burst ${index}`,
            start_date: "2033-05-01 09:00:00",
            end_date: "2033-05-01 10:00:00",
            venue: venue.id,
            categories: [category.id],
            tags: [`burst-${index}`],
          });
          const body = (await response.json()) as { id?: number; code?: string };
          outcomes.push({
            index,
            status: response.status,
            ...(body.id ? { id: body.id } : {}),
            ...(body.code ? { code: body.code } : {}),
          });
          if (response.status !== 201) return;
        } catch {
          outcomes.push({ index, status: "no answer" });
          return;
        }
        if (outcomes.length >= 60 && !signalled) {
          signalled = true;
          child.kill("SIGTERM");
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, writer));
    const { code, stdout } = await exit;
    expect(code).toBe(0);
    expect(stdout).toContain('"msg":"shutting down"');

    // Answered and done, refused while draining (503 in the envelope), or not answered (connection closed).
    const kinds = new Set(
      outcomes.map((outcome) => (outcome.code ? `${outcome.status} ${outcome.code}` : outcome.status)),
    );
    expect(
      [...kinds].filter((kind) => kind !== 201 && kind !== "503 rest_shutting_down" && kind !== "no answer"),
    ).toEqual([]);
    const created = outcomes.filter((outcome) => outcome.status === 201);
    const refused = outcomes.filter((outcome) => outcome.status === 503).length;
    expect(created.length).toBeGreaterThanOrEqual(60);
    expect(created.length).toBeLessThan(outcomes.length);

    const handle = await createDb(databaseUrl);
    try {
      const rows = await handle.db.event.findMany({
        where: { title: { startsWith: "Burst " } },
        select: {
          id: true,
          title: true,
          categories: { select: { category: { select: { name: true } } } },
          tags: { select: { tag: { select: { name: true } } } },
          venues: { select: { venue: { select: { name: true } } } },
        },
      });
      const stored = new Map(rows.map((row) => [row.id, row]));
      // Every write answered 201 is there, with the title it was sent with.
      for (const outcome of created) {
        expect(stored.get(outcome.id ?? 0)?.title).toBe(`Burst ${outcome.index}`);
      }
      // No event is half-written: each has its category, its own tag and the venue, answered or not.
      for (const row of rows) {
        const index = row.title.slice("Burst ".length);
        expect({
          title: row.title,
          categories: row.categories.map((link) => link.category.name),
          tags: row.tags.map((link) => link.tag.name),
          venues: row.venues.map((link) => link.venue.name),
        }).toEqual({ title: row.title, categories: ["Burst"], tags: [`burst-${index}`], venues: ["Burst Hall"] });
      }
      console.info(
        `shutdown (${provider}): ${outcomes.length} writes, ${created.length} answered 201, ` +
          `${refused} refused with 503 while draining, ${outcomes.length - created.length - refused} unanswered, ` +
          `${rows.length} events stored, all whole; exit code ${code}`,
      );
    } finally {
      await handle.close();
    }
  }, 120_000);
});

describe("a request arriving while the server drains", () => {
  const database = useTestDatabase("sqlite");

  it("is refused with 503 rest_shutting_down in the envelope, Retry-After, and the connection closed", async () => {
    const server = await buildServer({
      site: { timezone: "UTC" },
      bodyLimit: 1024 * 1024,
      handle: database.current.handle,
    });
    const origin = await server.listen({ host: "127.0.0.1", port: 0 });
    const { head: headers, body } = await getAcrossShutdown(origin, `${API}/events`, () => server.close());
    expect(headers[0]).toBe("http/1.1 503 service unavailable");
    expect(headers).toContain("retry-after: 1");
    expect(headers).toContain("connection: close");
    expect(JSON.parse(body)).toEqual({
      code: "rest_shutting_down",
      message: "The server is shutting down; send the request again.",
      data: { status: 503 },
    });
  });
});

describe("a locked SQLite database", () => {
  const server = useTestServer("sqlite");

  it("answers writes with 503 rest_database_unavailable while another connection holds the lock, and recovers", async () => {
    const editor = server.users.editor;
    const event = { title: "Locked out", start_date: "2033-06-01 10:00:00", end_date: "2033-06-01 11:00:00" };
    // Authenticating records the token's use (a write) once a minute: do it before locking.
    await server.call("GET /events", { as: editor, status: 200 });
    const other = new Database(sqliteFilePath(server.database.url));
    other.exec("BEGIN IMMEDIATE");
    try {
      const locked = await server.fail("POST /events", 503, { as: editor, body: event });
      expect([locked.status, locked.body]).toEqual([503, UNAVAILABLE]);
      // Readers are not blocked by a writer (WAL).
      await server.call("GET /events", { query: { search: "locked" }, status: 200 });
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    const recovered = await server.call("POST /events", { as: editor, body: event, status: 201 });
    expect([recovered.status, recovered.body.title]).toEqual([201, "Locked out"]);
    expect(await server.db.event.count({ where: { title: "Locked out" } })).toBe(1);
  }, 30_000);
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_POSTGRES_URL } from "@calendar/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { adminQuery } from "./support/postgres.ts";
import { finished, listening, runEntry } from "./support/process.ts";

const ADMIN_TOKEN = "process-test-admin-token";

async function startAndStop(databaseUrl: string) {
  const child = runEntry("src/main.ts", [], {
    DATABASE_URL: databaseUrl,
    PORT: "0",
    CALENDAR_ADMIN_TOKEN: ADMIN_TOKEN,
  });
  const done = finished(child);
  const address = await listening(child);
  const index = await (await fetch(`${address}/cal/events/v1`)).json();
  const response = await fetch(`${address}/cal/events/v1/doc`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const doc = (await response.json()) as Record<string, unknown>;
  child.kill("SIGTERM");
  const { code, stdout } = await done;
  const logs = stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { index, doc, exit: code, logs, stdout };
}

describe("the server process", () => {
  const dir = mkdtempSync(join(tmpdir(), "calendar-process-"));
  const database = `calendar_process_${process.pid}`;
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  });

  it("creates and migrates a new SQLite file at start, serves the index and document, and stops on SIGTERM", async () => {
    const { index, doc, exit } = await startAndStop(`file:${join(dir, "nested", "calendar.db")}`);
    expect(index).toMatchObject({ namespace: "cal/events/v1" });
    expect(doc.openapi).toMatch(/^3\./);
    expect(exit).toBe(0);
  });

  it("logs one structured JSON line per request, without credentials", async () => {
    const { logs, stdout } = await startAndStop(`file:${join(dir, "logs.db")}`);
    const requests = logs.filter((line) => line.msg === "request completed");
    expect(requests.map((line) => [line.method, line.route, line.status])).toEqual([
      ["GET", "/cal/events/v1", 200],
      ["GET", "/cal/events/v1/doc", 200],
    ]);
    for (const line of requests) {
      expect(typeof line.reqId).toBe("string");
      expect(typeof line.durationMs).toBe("number");
    }
    expect(stdout).not.toContain(ADMIN_TOKEN);
  });

  it("creates and migrates a new PostgreSQL database at start", async () => {
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${database}`;
    const { index, exit } = await startAndStop(url.toString());
    expect(index).toMatchObject({ namespace: "cal/events/v1" });
    expect(exit).toBe(0);
  });

  it("refuses to start with a bad setting, naming it, with exit code 78", async () => {
    const result = await finished(runEntry("src/main.ts", [], { PORT: "http", CALENDAR_TIMEZONE: "Nowhere/Land" }));
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("Invalid configuration:");
    expect(result.stderr).toContain("PORT: must be a whole number");
    expect(result.stderr).toContain("CALENDAR_TIMEZONE: must be an IANA time zone");
  });
});

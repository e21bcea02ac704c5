import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_POSTGRES_URL } from "@calendar/core/testing";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { finished, listening, runEntry } from "./support/process.ts";

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function startAndStop(
  databaseUrl: string,
): Promise<{ index: unknown; doc: Record<string, unknown>; exit: number | null }> {
  const child = runEntry("src/main.ts", [], {
    DATABASE_URL: databaseUrl,
    PORT: "0",
    CALENDAR_ADMIN_TOKEN: "process-test-admin-token",
  });
  const done = finished(child);
  const address = await listening(child);
  const index = await (await fetch(`${address}/cal/events/v1`)).json();
  const doc = (await (await fetch(`${address}/cal/events/v1/doc`)).json()) as Record<string, unknown>;
  child.kill("SIGTERM");
  return { index, doc, exit: (await done).code };
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

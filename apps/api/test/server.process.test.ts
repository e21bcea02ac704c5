import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TEST_POSTGRES_URL } from "@calendar/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { adminQuery } from "./support/postgres.ts";
import { finished, listening, runEntry } from "./support/process.ts";

const ADMIN_TOKEN = "process-test-admin-token";

async function startAndStop(databaseUrl: string, signal: NodeJS.Signals = "SIGTERM") {
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
  child.kill(signal);
  const { code, stdout, stderr } = await done;
  const logs = stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { index, doc, exit: code, logs, stdout, stderr };
}

const COMPILER_PROBE = fileURLToPath(new URL("./support/query-compiler.probe.mjs", import.meta.url));
const COMPILER_LOADED = "query compiler loaded";
/** What Prisma's client logs under `DEBUG=prisma:client` when it is constructed. */
const CLIENT_CREATED = "prisma:client clientVersion";

/**
 * Restarts the server on a database a first start migrated and gave its administrator, with `COMPILER_PROBE`
 * preloaded and Prisma's client logging: what it writes on stderr before the first write request, and after it.
 */
async function prismaLoadsOf(databaseUrl: string): Promise<{ beforeWrite: string; afterWrite: string }> {
  const env = { DATABASE_URL: databaseUrl, PORT: "0", CALENDAR_ADMIN_TOKEN: ADMIN_TOKEN };
  const first = runEntry("src/main.ts", [], env);
  const firstDone = finished(first);
  await listening(first);
  first.kill("SIGTERM");
  await firstDone;
  const child = runEntry("src/main.ts", [], {
    ...env,
    NODE_OPTIONS: `--import=${COMPILER_PROBE}`,
    DEBUG: "prisma:client",
    CALENDAR_WEBHOOKS_POLL_MS: "10",
  });
  const done = finished(child);
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const address = await listening(child);
  const asAdmin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
  expect((await fetch(`${address}/readyz`)).status).toBe(200);
  expect((await fetch(`${address}/cal/events/v1/events?status=draft`, { headers: asAdmin })).status).toBe(200);
  // The workers' first looks, and a few polls of the webhook worker, ran in the meantime.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const beforeWrite = stderr;
  const body = JSON.stringify({ title: "Written", start_date: "2031-01-01 10:00:00", end_date: "2031-01-01 11:00:00" });
  const created = await fetch(`${address}/cal/events/v1/events`, { method: "POST", headers: asAdmin, body });
  expect(created.status).toBe(201);
  child.kill("SIGTERM");
  await done;
  return { beforeWrite, afterWrite: stderr };
}

describe("Prisma's client and query compiler in the server process", () => {
  const dir = mkdtempSync(join(tmpdir(), "calendar-compiler-"));
  const database = `calendar_compiler_${process.pid}`;
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  });

  const postgresUrl = () => {
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${database}`;
    return url.toString();
  };

  it.each([
    ["SQLite", () => `file:${join(dir, "calendar.db")}`],
    ["PostgreSQL", postgresUrl],
  ])(
    "are created by the first write, not by the start, authentication, readiness or the workers (%s)",
    async (_, urlOf) => {
      const { beforeWrite, afterWrite } = await prismaLoadsOf(urlOf());
      expect(beforeWrite).not.toContain(CLIENT_CREATED);
      expect(beforeWrite).not.toContain(COMPILER_LOADED);
      expect(afterWrite).toContain(CLIENT_CREATED);
      expect(afterWrite).toContain(COMPILER_LOADED);
    },
  );
});

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
    const { index, exit, logs } = await startAndStop(url.toString());
    expect(index).toMatchObject({ namespace: "cal/events/v1" });
    expect(exit).toBe(0);
    const started = logs.filter((line) => String(line.msg).startsWith("Server listening at"));
    expect(started).toHaveLength(1);
    expect(started[0]?.msg).toMatch(
      new RegExp(
        `^Server listening at (http://127\\.0\\.0\\.1:\\d+): API \\1/cal/events/v1, explorer \\1/docs, database PostgreSQL ${url.host}/${database}$`,
      ),
    );
  });

  it("says at start, in one info line, where the API and the explorer answer and which SQLite file it uses", async () => {
    const file = join(dir, "announce.db");
    const { logs } = await startAndStop(`file:${file}`);
    const started = logs.filter((line) => String(line.msg).startsWith("Server listening at"));
    expect(started).toHaveLength(1);
    expect(started[0]?.level).toBe(30);
    expect(started[0]?.msg).toMatch(
      new RegExp(
        `^Server listening at (http://127\\.0\\.0\\.1:\\d+): API \\1/cal/events/v1, explorer \\1/docs, database SQLite ${file}$`,
      ),
    );
  });

  it("exits 0 on SIGINT (Ctrl-C), without anything on stderr", async () => {
    const { exit, stderr } = await startAndStop(`file:${join(dir, "sigint.db")}`, "SIGINT");
    expect(exit).toBe(0);
    expect(stderr).toBe("");
  });

  it("refuses a port in use with one line and exit code 69", async () => {
    const blocker = createServer();
    blocker.listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const address = blocker.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    try {
      const result = await finished(
        runEntry("src/main.ts", [], { DATABASE_URL: `file:${join(dir, "busy.db")}`, PORT: String(address.port) }),
      );
      expect(result.code).toBe(69);
      expect(result.stderr).toBe(
        `Cannot listen on 127.0.0.1:${address.port}: the port is in use (set PORT to another one).\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it("refuses an address this machine does not have with one line and exit code 69", async () => {
    const result = await finished(
      runEntry("src/main.ts", [], { DATABASE_URL: `file:${join(dir, "nowhere.db")}`, HOST: "192.0.2.1", PORT: "0" }),
    );
    expect(result.code).toBe(69);
    expect(result.stderr).toBe("Cannot listen on 192.0.2.1:0: no such address on this machine (check HOST).\n");
  });

  it("refuses to start with a bad setting, naming it, with exit code 78", async () => {
    const result = await finished(runEntry("src/main.ts", [], { PORT: "http", CALENDAR_TIMEZONE: "Nowhere/Land" }));
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("Invalid configuration:");
    expect(result.stderr).toContain("PORT: must be a whole number");
    expect(result.stderr).toContain("CALENDAR_TIMEZONE: must be an IANA time zone");
  });
});

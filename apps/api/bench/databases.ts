import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb, createUser, type Provider } from "@calendar/core";
import pg from "pg";

/**
 * The benchmark databases: one per provider and size, seeded through `calendar db seed --events N` (the same
 * command a user runs), kept between runs so that `--reuse` can skip the seeding.
 */

export const BENCH_POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const SQLITE_DIR = join(tmpdir(), "calendar-bench");

export interface BenchDatabase {
  provider: Provider;
  events: number;
  url: string;
  /** Seconds the seed took (undefined when an existing database was reused). */
  seedSeconds?: number;
}

function postgresUrl(name: string): string {
  const url = new URL(BENCH_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function urlOf(provider: Provider, events: number): string {
  return provider === "sqlite"
    ? `file:${join(SQLITE_DIR, `bench-${events}.db`)}`
    : postgresUrl(`calendar_bench_${events}`);
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function exists(provider: Provider, events: number): Promise<boolean> {
  if (provider === "sqlite") return existsSync(join(SQLITE_DIR, `bench-${events}.db`));
  return withAdmin(async (client) => {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [
      `calendar_bench_${events}`,
    ]);
    return (rowCount ?? 0) > 0;
  });
}

async function drop(provider: Provider, events: number): Promise<void> {
  if (provider === "sqlite") {
    mkdirSync(SQLITE_DIR, { recursive: true });
    for (const suffix of ["", "-wal", "-shm", "-journal"]) {
      rmSync(join(SQLITE_DIR, `bench-${events}.db${suffix}`), { force: true });
    }
    return;
  }
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "calendar_bench_${events}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "calendar_bench_${events}"`);
  });
}

/** A new, empty database (no tables yet: the server's first start migrates it), for the start-up RSS. */
export async function emptyDatabase(provider: Provider): Promise<string> {
  await drop(provider, 0);
  return urlOf(provider, 0);
}

/** `pnpm --silent calendar db seed --events N` against the database; its progress goes to our stderr. */
function seed(url: string, events: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("pnpm", ["--silent", "calendar", "db", "seed", "--events", String(events)], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`The seed exited with ${code}.`))));
  });
}

/** A seeded database of the given size: reused when asked and present, else seeded anew (and timed). */
export async function prepareDatabase(provider: Provider, events: number, reuse: boolean): Promise<BenchDatabase> {
  const url = urlOf(provider, events);
  if (reuse && (await exists(provider, events))) return { provider, events, url };
  await drop(provider, events);
  const started = performance.now();
  await seed(url, events);
  const seedSeconds = (performance.now() - started) / 1000;
  if (provider === "postgres") await vacuum(url);
  return { provider, events, url, seedSeconds };
}

/**
 * What autovacuum would do a little later: the planner's statistics, and the visibility map that lets the list's
 * count read the index alone. Done at once so that the measurements do not depend on when autovacuum runs.
 */
async function vacuum(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("VACUUM ANALYZE");
  } finally {
    await client.end();
  }
}

/** An editor's token for the write scenario. */
export async function benchToken(url: string): Promise<string> {
  const handle = await createDb(url);
  try {
    const login = `bench-${Date.now()}`;
    return (await createUser(handle.db, { login, role: "editor" })).token;
  } finally {
    await handle.close();
  }
}

import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrateDatabase } from "@calendar/migrate";
import pg from "pg";
import { createDb, type DbHandle, type Provider } from "../db/db.ts";

const ALL_PROVIDERS: readonly Provider[] = ["sqlite", "postgres"];

/**
 * Every data test runs on both databases, unless `CALENDAR_TEST_PROVIDERS` (a comma list) names fewer: the `sqlite`
 * and `postgres` projects of `vitest.config.ts` run the same files, one database each.
 */
export const PROVIDERS: readonly Provider[] = providersOf(process.env.CALENDAR_TEST_PROVIDERS);

function providersOf(list: string | undefined): readonly Provider[] {
  if (list === undefined) return ALL_PROVIDERS;
  const named = list.split(",").map((name) => name.trim());
  const unknown = named.filter((name) => !ALL_PROVIDERS.some((provider) => provider === name));
  if (unknown.length) throw new Error(`CALENDAR_TEST_PROVIDERS names unknown databases: ${unknown.join(", ")}`);
  return ALL_PROVIDERS.filter((provider) => named.includes(provider));
}

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

const PRISMA_DIR = fileURLToPath(new URL("../../../../prisma", import.meta.url));

/** Identifies the migrations, so that templates are rebuilt when a migration is added or changed. */
function migrationsFingerprint(provider: Provider): string {
  const dir = join(PRISMA_DIR, provider, "migrations");
  const hash = createHash("sha256");
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name, "migration.sql");
    if (existsSync(file)) hash.update(name).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 12);
}

function uniqueSuffix(): string {
  return `${process.pid}_${randomBytes(4).toString("hex")}`;
}

export interface TestDatabase {
  provider: Provider;
  url: string;
  handle: DbHandle;
  /** Closes the client and removes the database. */
  drop(): Promise<void>;
}

// SQLite: a migrated template file per migration set, copied for each test file.
async function sqliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), "calendar-test-templates");
  const template = join(dir, `sqlite-${migrationsFingerprint("sqlite")}.db`);
  if (existsSync(template)) return template;
  mkdirSync(dir, { recursive: true });
  const building = join(dir, `building-${uniqueSuffix()}.db`);
  await migrateDatabase(`file:${building}`);
  // Several workers may build it at once; the rename is atomic, so every reader sees a complete file.
  renameSync(building, template);
  return template;
}

async function createSqliteDatabase(): Promise<TestDatabase> {
  const template = await sqliteTemplate();
  const dir = join(tmpdir(), "calendar-test-dbs");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `test-${uniqueSuffix()}.db`);
  copyFileSync(template, path);
  const url = `file:${path}`;
  const handle = await createDb(url);
  return {
    provider: "sqlite",
    url,
    handle,
    async drop() {
      await handle.close();
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}

// PostgreSQL: a migrated template database per migration set, cloned with CREATE DATABASE … TEMPLATE.
function databaseUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const TEMPLATE_LOCK = 7_301_001;

async function postgresTemplate(): Promise<string> {
  const name = `calendar_tpl_${migrationsFingerprint("postgres")}`;
  await withAdminClient(async (client) => {
    await client.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK]);
    try {
      const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (rowCount) return;
      const building = `calendar_tplb_${uniqueSuffix()}`;
      await client.query(`CREATE DATABASE "${building}"`);
      await migrateDatabase(databaseUrl(building));
      await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK]);
    }
  });
  return name;
}

/** PostgreSQL refuses to clone a template while another clone of it is starting (55006): wait and retry. */
async function cloneDatabase(client: pg.Client, name: string, template: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

async function createPostgresDatabase(): Promise<TestDatabase> {
  const template = await postgresTemplate();
  const name = `calendar_test_${uniqueSuffix()}`;
  await withAdminClient((client) => cloneDatabase(client, name, template));
  const url = databaseUrl(name);
  const handle = await createDb(url);
  return {
    provider: "postgres",
    url,
    handle,
    async drop() {
      await handle.close();
      await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** A fresh, migrated database of the given kind, for one test file. */
export function createTestDatabase(provider: Provider): Promise<TestDatabase> {
  return provider === "sqlite" ? createSqliteDatabase() : createPostgresDatabase();
}

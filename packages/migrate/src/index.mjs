// Migrate-on-start for the application and database templates for the tests: applies the committed migrations
// of prisma/<sqlite|postgres>/migrations through the wasm schema engine (no engine binary, no Prisma CLI).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import {
  describeDatabase,
  ensureDatabase,
  postgresConfig,
  postgresSchemaOf,
  providerOf,
  quoteIdentifier,
  sqliteFilePath,
  withPostgresAdvisoryLock,
  withPostgresClient,
} from "./databases.mjs";
import { NO_FILTERS, openMigrationEngine, readMigrationsList } from "./wasm-engine.mjs";

export { providerOf };

/** The repository's prisma folder, found from this file so that the caller's cwd does not matter. */
export const prismaDir = fileURLToPath(new URL("../../../prisma/", import.meta.url));

export function migrationsDirOf(provider) {
  return path.join(prismaDir, provider, "migrations");
}

/**
 * Applies the pending migrations to the database at `url`, creating the database first if needed.
 * @param {string} url `file:<path>` (relative paths: against process.cwd()) or `postgres(ql)://…`
 * @param {{ log?: (line: string) => void, migrationsDir?: string }} [options]
 * @returns {Promise<{ applied: string[] }>}
 */
export async function migrateDatabase(url, options = {}) {
  const provider = providerOf(url);
  const absoluteUrl = provider === "sqlite" ? toAbsoluteFileUrl(url) : url;
  const migrationsDir = path.resolve(options.migrationsDir ?? migrationsDirOf(provider));
  if (!fs.existsSync(migrationsDir)) throw new Error(`No migrations folder at ${migrationsDir}`);
  const migrationsList = await readMigrationsList(migrationsDir);
  const log = options.log ?? (() => {});

  await ensureDatabase(absoluteUrl);
  if (await databaseIsUpToDate(absoluteUrl, migrationsList)) {
    log(`${describeDatabase(absoluteUrl)} is up to date`);
    return { applied: [] };
  }
  const apply = () => applyPendingMigrations(absoluteUrl, migrationsList, log);
  return serializedPerDatabase(absoluteUrl, () =>
    provider === "postgres" ? withPostgresAdvisoryLock(absoluteUrl, apply) : apply(),
  );
}

/**
 * Whether `migrateDatabase(url)` has work to do: false when every committed migration is applied (read from
 * `_prisma_migrations`, without the schema engine); true otherwise, and when the database cannot be read (missing,
 * unreachable), so that `migrateDatabase` creates it or reports the problem.
 * @param {string} url
 * @returns {Promise<boolean>}
 */
export async function needsMigrating(url) {
  const provider = providerOf(url);
  const absoluteUrl = provider === "sqlite" ? toAbsoluteFileUrl(url) : url;
  const migrationsList = await readMigrationsList(migrationsDirOf(provider));
  return databaseIsUpToDate(absoluteUrl, migrationsList).then(
    (upToDate) => !upToDate,
    () => true,
  );
}

/** Relative paths against the cwd of this call (later connections must not depend on it). */
function toAbsoluteFileUrl(url) {
  return `file:${sqliteFilePath(url)}`;
}

/**
 * Whether every migration of `migrationsList` is applied to the database at `url` (absolute), from a read-only
 * look at `_prisma_migrations`. Most calls find nothing to do, and answering without the wasm schema engine matters
 * twice: the engine takes an exclusive lock on a SQLite file, so it fails while the server (or anybody) has the
 * file open (`calendar` commands work beside a running server), and its WebAssembly memory (~20 MB) would stay in
 * the server's process for good. Anything else (pending, failed or unknown rows) goes to the engine, which decides.
 */
export async function databaseIsUpToDate(url, migrationsList) {
  const rows = providerOf(url) === "sqlite" ? sqliteMigrationRows(url) : await postgresMigrationRows(url);
  if (!rows) return false;
  const done = new Set(rows.filter((row) => row.finished_at && !row.rolled_back_at).map((row) => row.migration_name));
  const failed = rows.some((row) => !row.finished_at && !row.rolled_back_at);
  return !failed && migrationsList.migrationDirectories.every((directory) => done.has(directory.path));
}

/** The rows of `_prisma_migrations` in a SQLite file; undefined when the file or the table does not exist. */
function sqliteMigrationRows(url) {
  const file = sqliteFilePath(url);
  if (!fs.existsSync(file)) return undefined;
  const database = new Database(file, { readonly: true });
  try {
    const table = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'")
      .get();
    if (!table) return undefined;
    return database.prepare("SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations").all();
  } finally {
    database.close();
  }
}

/** The rows of `_prisma_migrations` in the URL's schema (`?schema=`, else public); undefined without the table. */
async function postgresMigrationRows(url) {
  const table = `${quoteIdentifier(postgresSchemaOf(url) ?? "public")}._prisma_migrations`;
  return withPostgresClient(postgresConfig(url), async (client) => {
    const exists = await client.query("SELECT to_regclass($1) IS NOT NULL AS present", [table]);
    if (!exists.rows[0]?.present) return undefined;
    const { rows } = await client.query(`SELECT migration_name, finished_at, rolled_back_at FROM ${table}`);
    return rows;
  });
}

async function applyPendingMigrations(url, migrationsList, log) {
  const database = describeDatabase(url);
  let migrationInProgress;
  const onEngineLog = (line) => {
    const name = migrationBeingApplied(line);
    if (!name) return;
    migrationInProgress = name;
    log(`Applying migration ${name} to ${database}`);
  };

  const engine = await openMigrationEngine({ url, log: onEngineLog });
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
    log(
      appliedMigrationNames.length > 0
        ? `Applied ${appliedMigrationNames.length} migration(s) to ${database}`
        : `${database} is up to date`,
    );
    return { applied: appliedMigrationNames };
  } catch (error) {
    throw migrationError(error, {
      url,
      database,
      migration: migrationInProgress,
      databaseMessage: engine.lastScriptError,
    });
  } finally {
    await engine.close();
  }
}

/** The engine logs `Applying \`<name>\`` (as JSON) just before it runs a migration's script. */
function migrationBeingApplied(line) {
  try {
    const message = JSON.parse(line)?.fields?.message;
    return /^Applying `(.+)`$/.exec(message ?? "")?.[1];
  } catch {
    return undefined;
  }
}

function migrationError(error, { url, database, migration, databaseMessage }) {
  const code = error?.code ? ` [${error.code}]` : "";
  if (!migration) return withCause(`Could not migrate ${database}: ${String(error?.message ?? error).trim()}${code}`);
  const resolveCommand =
    `DATABASE_URL=<url> pnpm db:prisma migrate resolve --rolled-back ${migration} ` +
    `--config prisma/${providerOf(url)}.config.ts`;
  return withCause(
    `Migration ${migration} failed on ${database} and was rolled back (nothing of it is applied): ` +
      `${(databaseMessage ?? error.message).trim()}${code}. ` +
      `It stays recorded as failed in _prisma_migrations; once it is fixed: ${resolveCommand}`,
  );

  function withCause(message) {
    return Object.assign(new Error(message, { cause: error }), { code: error?.code, migration });
  }
}

const queues = new Map();

/** Calls for the same database in this process run one after the other (the lock covers other processes). */
function serializedPerDatabase(url, work) {
  const previous = queues.get(url) ?? Promise.resolve();
  const current = previous.catch(() => {}).then(work);
  const settled = current.catch(() => {});
  queues.set(url, settled);
  settled.then(() => {
    if (queues.get(url) === settled) queues.delete(url);
  });
  return current;
}

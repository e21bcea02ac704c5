// Database URLs and the life cycle of the databases themselves (exists? create, drop), for SQLite files and
// PostgreSQL servers. Used by migrateDatabase, by the shim's one-shot `cli …-database` commands and by the tools.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** @returns {"sqlite" | "postgres"} */
export function providerOf(url) {
  if (typeof url === "string" && url.startsWith("file:")) return "sqlite";
  if (typeof url === "string" && /^postgres(ql)?:\/\//.test(url)) return "postgres";
  throw new Error(
    `Unsupported database URL ${JSON.stringify(redactUrl(String(url)))}: expected file:<path> (SQLite) or postgres(ql)://… (PostgreSQL)`,
  );
}

/** The URL with its password replaced, for messages and logs. */
export function redactUrl(url) {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, "$1***@");
}

/** Absolute path of a `file:` URL; relative paths are resolved against `cwd`, query parameters are dropped. */
export function sqliteFilePath(url, cwd = process.cwd()) {
  const withoutQuery = url.replace(/\?.*$/, "");
  if (withoutQuery.startsWith("file://")) return fileURLToPath(withoutQuery);
  return path.resolve(cwd, withoutQuery.slice("file:".length));
}

/**
 * node-postgres settings from a URL, as discrete fields. W4: never hand `connectionString` to a pool that is
 * later re-created with another `database` (shadow databases): node-postgres lets `connectionString` win over
 * `database`, so the "shadow" pool would silently talk to the main database.
 */
export function postgresConfig(url) {
  const parsed = new URL(url);
  const params = parsed.searchParams;
  return {
    host: params.get("host") ?? (decodeURIComponent(parsed.hostname) || "localhost"),
    port: Number(params.get("port") ?? parsed.port) || 5432,
    user: decodeURIComponent(parsed.username) || undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    database: decodeURIComponent(parsed.pathname.slice(1)) || undefined,
    ssl: sslOption(params.get("sslmode")),
    application_name: "calendar-migrate",
  };
}

/** The `?schema=` of a PostgreSQL URL (Prisma's convention), if any. */
export function postgresSchemaOf(url) {
  return new URL(url).searchParams.get("schema") ?? undefined;
}

/** libpq's sslmode, as far as node-postgres can follow it (it cannot fall back from SSL: prefer = no SSL). */
function sslOption(sslmode) {
  if (sslmode === "require") return { rejectUnauthorized: false };
  if (sslmode === "verify-ca" || sslmode === "verify-full") return true;
  return undefined;
}

/** Where a database lives, for messages: the SQLite file, or the PostgreSQL database and server. */
export function describeDatabase(url) {
  if (providerOf(url) === "sqlite") return `SQLite database ${sqliteFilePath(url)}`;
  const { host, port, database } = postgresConfig(url);
  return `PostgreSQL database "${database}" at ${host}:${port}`;
}

/**
 * Can we connect? `null` when yes, else the error the way the native schema engine reports it
 * (P1003 = the database does not exist, which callers may fix with createDatabase).
 * @returns {Promise<null | { code: string, message: string }>}
 */
export async function probeDatabase(url, cwd) {
  if (providerOf(url) === "sqlite") {
    const file = sqliteFilePath(url, cwd);
    if (fs.existsSync(file)) return null;
    return { code: "P1003", message: `Database ${path.basename(file)} does not exist at ${file}` };
  }
  const config = postgresConfig(url);
  try {
    await withPostgresClient(config, () => {});
    return null;
  } catch (error) {
    return describePostgresConnectError(error, config);
  }
}

function describePostgresConnectError(error, { host, port, user, database }) {
  const server = `${host}:${port}`;
  if (error.code === "3D000")
    return {
      code: "P1003",
      message: `Database \`${database}\` does not exist on the database server at \`${server}\`.`,
    };
  if (error.code === "28P01" || error.code === "28000")
    return {
      code: "P1000",
      message: `Authentication failed against database server at \`${host}\`, the provided database credentials for \`${user}\` are not valid.`,
    };
  if (["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "EHOSTUNREACH"].includes(error.code))
    return { code: "P1001", message: `Can't reach database server at \`${server}\`` };
  return { code: "P1000", message: error.message };
}

/** Creates the database; a database that already exists (e.g. created concurrently) is not an error. */
export async function createDatabase(url, cwd) {
  if (providerOf(url) === "sqlite") {
    const file = sqliteFilePath(url, cwd);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.closeSync(fs.openSync(file, "a")); // an empty file is a valid, empty SQLite database
    return path.basename(file);
  }
  const { database } = postgresConfig(url);
  await withMaintenanceClient(url, async (client) => {
    try {
      await client.query(`CREATE DATABASE ${quoteIdentifier(database)}`);
    } catch (error) {
      // 42P04: exists already; 23505: lost a race with a concurrent CREATE DATABASE of the same name.
      if (error.code !== "42P04" && error.code !== "23505") throw error;
    }
  });
  return database;
}

export async function dropDatabase(url, cwd) {
  if (providerOf(url) === "sqlite") {
    const file = sqliteFilePath(url, cwd);
    for (const suffix of ["", "-journal", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
    return;
  }
  const { database } = postgresConfig(url);
  await withMaintenanceClient(url, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(database)} WITH (FORCE)`),
  );
}

/** Creates the database (and, for SQLite, its folder) unless it exists. */
export async function ensureDatabase(url) {
  if (providerOf(url) === "sqlite") {
    fs.mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
    return;
  }
  const problem = await probeDatabase(url);
  if (problem?.code === "P1003") await createDatabase(url);
  else if (problem) throw new Error(`${problem.code}: ${problem.message}`);
}

/**
 * Runs `work` while holding a session-level advisory lock in the target PostgreSQL database, so that several
 * processes migrating the same database run one after the other. The key differs from the one the schema
 * engine takes itself (72707369) on its own connections, so the two never wait for each other.
 */
export async function withPostgresAdvisoryLock(url, work) {
  const lockKey = "4242081601"; // "calendar migrate", an arbitrary constant bigint
  return withPostgresClient(postgresConfig(url), async (client) => {
    await client.query(`SELECT pg_advisory_lock(${lockKey})`);
    try {
      return await work();
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${lockKey})`);
    }
  });
}

/** Another database on the same server, same credentials. */
export function postgresUrlWithDatabase(url, database) {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

export function quoteIdentifier(name) {
  return `"${String(name).replaceAll('"', '""')}"`;
}

/** The PostgreSQL driver, loaded on first use: migrating a SQLite database does not need it. */
async function loadPg() {
  return (await import("pg")).default;
}

export async function withPostgresClient(config, work) {
  const pg = await loadPg();
  const client = new pg.Client(config);
  await client.connect();
  return useAndEnd(client, work);
}

/** A connection to the server's `postgres` database (or `template1`), to create and drop other databases. */
async function withMaintenanceClient(url, work) {
  let lastError;
  const pg = await loadPg();
  for (const database of ["postgres", "template1"]) {
    const client = new pg.Client({ ...postgresConfig(url), database });
    try {
      await client.connect();
    } catch (error) {
      if (error.code !== "3D000") throw error;
      lastError = error;
      continue;
    }
    return useAndEnd(client, work);
  }
  throw lastError;
}

async function useAndEnd(client, work) {
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

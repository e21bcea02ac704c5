import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { providerOf } from "@calendar/migrate";
import Database from "better-sqlite3";
import type { PrismaClient as SqliteClient } from "../generated/sqlite/client.ts";
import { type LazyClient, lazyClient } from "./lazy-client.ts";
import { postgresReader } from "./reader.postgres.ts";
import { openSqliteReader } from "./reader.sqlite.ts";
import type { JsonReader } from "./reader.ts";
import { SqliteAdapterFactory, type SqliteSynchronous } from "./sqlite-adapter.ts";

/**
 * The database client every service receives. Both generated clients have the same model API; the SQLite one is
 * the declared type so that PostgreSQL-only options (such as `mode: "insensitive"`) cannot creep into services.
 */
export type Db = SqliteClient;
export type Provider = "sqlite" | "postgres";

/** A transaction client, as handed to `db.$transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export interface DbHandle {
  db: Db;
  provider: Provider;
  close(): Promise<void>;
}

/** Milliseconds a SQLite writer waits for the lock before giving up. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

export { MAX_BIND_VALUES, type SqliteSynchronous } from "./sqlite-adapter.ts";

export interface DbOptions {
  sqliteSynchronous?: SqliteSynchronous;
}

export function sqliteFilePath(url: string): string {
  const path = url.slice("file:".length);
  return path.startsWith("//") ? fileURLToPath(url) : path;
}

interface Opened {
  /** Prisma's client, created by the first write (or anything else that reads a property of it). */
  prisma: LazyClient<Db>;
  reader: JsonReader;
}

async function openSqlite(url: string, synchronous: SqliteSynchronous): Promise<Opened> {
  const path = sqliteFilePath(url);
  mkdirSync(dirname(path), { recursive: true });
  // WAL lets readers run beside the writer; the mode is stored in the file, so setting it once is enough.
  const raw = new Database(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  raw.pragma("journal_mode = WAL");
  raw.close();
  const { PrismaClient } = await import("../generated/sqlite/client.ts");
  return {
    prisma: lazyClient(() => {
      const adapter = new SqliteAdapterFactory({ url: `file:${path}`, timeout: SQLITE_BUSY_TIMEOUT_MS }, synchronous);
      return new PrismaClient({ adapter });
    }),
    reader: openSqliteReader(path, SQLITE_BUSY_TIMEOUT_MS, synchronous),
  };
}

/** The PostgreSQL driver is loaded only for a PostgreSQL database: a SQLite server starts without it. */
async function openPostgres(url: string): Promise<Opened> {
  const [{ PrismaClient }, { PrismaPg }, { default: pg }] = await Promise.all([
    import("../generated/postgres/client.ts"),
    import("@prisma/adapter-pg"),
    import("pg"),
  ]);
  const pool = new pg.Pool({ connectionString: url });
  // An idle connection the server ends (a restart, a failover, a terminated backend) is dropped by the pool, which
  // then emits "error": without a listener that would be an uncaught exception ending the process. The next query
  // opens a new connection.
  pool.on("error", () => undefined);
  return {
    prisma: lazyClient(
      () => new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }) as unknown as Db,
    ),
    reader: postgresReader(pool),
  };
}

const readers = new WeakMap<Db, JsonReader>();

/** A client derived from one `createDb` made (by `$extends`), as a `Db` that reads on the same raw reader. */
export function derivedDb(base: Db, derived: object): Db {
  readers.set(derived as Db, readerOf(base));
  return derived as Db;
}

/** The raw reader of a client made by `createDb` (the hot reads run on it). */
export function readerOf(db: Db): JsonReader {
  const reader = readers.get(db);
  if (!reader) throw new Error("The database client was not created by createDb.");
  return reader;
}

/**
 * Creates a client for `url` (`file:` → SQLite, `postgres(ql)://` → PostgreSQL). No module-level singleton. Only the
 * provider's generated client is loaded (the other one's model and schema stay out of memory), and Prisma's client is
 * created on first use (see `lazyClient`): the reads on the driver do not need it.
 */
export async function createDb(url: string, options: DbOptions = {}): Promise<DbHandle> {
  const provider = providerOf(url);
  const { prisma, reader } =
    provider === "sqlite" ? await openSqlite(url, options.sqliteSynchronous ?? "full") : await openPostgres(url);
  const db = prisma.client;
  readers.set(db, reader);
  return {
    db,
    provider,
    close: async () => {
      await prisma.created()?.$disconnect();
      await reader.close();
    },
  };
}

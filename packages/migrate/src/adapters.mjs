// Prisma driver adapters for the wasm schema engine, built from a database URL, with the fixes the stock
// adapters need when they are used for migrations (W2–W6 of the prisma-offline notes). The application's own
// Prisma client keeps using the stock factories: these fixes only matter for the schema engine.
import { randomUUID } from "node:crypto";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import {
  postgresConfig,
  postgresSchemaOf,
  postgresUrlWithDatabase,
  providerOf,
  quoteIdentifier,
  sqliteFilePath,
} from "./databases.mjs";

/**
 * A migration-aware adapter factory for `url`, bound with `bindMigrationAwareSqlAdapterFactory` (the form the
 * wasm engine expects), plus what its owner needs around it: the last database error of a migration script
 * (the engine only passes on Prisma's rewording of it) and a way to close every connection it opened.
 */
export function createMigrationAdapterFactory(url, { shadowDatabaseUrl, cwd } = {}) {
  const connections = new ConnectionTracker();
  const factory =
    providerOf(url) === "sqlite"
      ? new SqliteMigrationFactory(sqliteFilePath(url, cwd), connections)
      : new PostgresMigrationFactory(url, shadowDatabaseUrl, connections);
  return {
    provider: factory.provider,
    bound: bindMigrationAwareSqlAdapterFactory(factory),
    lastScriptError: () => connections.lastScriptError,
    closeAll: () => connections.closeAll(),
  };
}

/** Remembers every adapter handed to the engine (the engine does not always dispose them) and script errors. */
class ConnectionTracker {
  adapters = [];
  lastScriptError = undefined;

  track(adapter) {
    const dispose = once(adapter.dispose.bind(adapter));
    adapter.dispose = dispose;
    this.adapters.push(adapter);
    return adapter;
  }

  /** Wraps `executeScript` to remember the driver's own message when a migration script fails. */
  recordScriptErrors(adapter) {
    const executeScript = adapter.executeScript.bind(adapter);
    adapter.executeScript = async (script) => {
      try {
        return await executeScript(script);
      } catch (error) {
        this.lastScriptError = error.cause?.originalMessage ?? error.message;
        throw error;
      }
    };
    return adapter;
  }

  /** Shadow databases are disposed first: on PostgreSQL their disposal uses a main connection. */
  async closeAll() {
    const adapters = this.adapters.splice(0).reverse();
    for (const adapter of adapters) await adapter.dispose().catch(() => {});
  }
}

class SqliteMigrationFactory {
  provider = "sqlite";
  adapterName = "@prisma/adapter-better-sqlite3";

  constructor(file, connections) {
    this.stock = new PrismaBetterSqlite3({ url: file });
    this.connections = connections;
  }

  async connect() {
    return this.prepare(await this.stock.connect());
  }

  /** An in-memory database (the stock behaviour), with the same fixes. */
  async connectToShadowDb() {
    return this.prepare(await this.stock.connectToShadowDb());
  }

  prepare(adapter) {
    makeSqliteScriptsAtomic(adapter);
    this.connections.recordScriptErrors(adapter);
    runMultiStatementRawAsScript(adapter);
    return this.connections.track(adapter);
  }
}

/**
 * W2: the engine replays each migration.sql on the shadow database with ONE `executeRaw`, and better-sqlite3's
 * `prepare()` rejects a string with several statements (RangeError "…contains more than one statement").
 * Such a parameterless raw statement is really a script: run it as one.
 */
function runMultiStatementRawAsScript(adapter) {
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      const isMultiStatement = error instanceof RangeError && /more than one statement/.test(error.message);
      if (!isMultiStatement || query.args.length > 0) throw error;
      await adapter.executeScript(query.sql);
      return 0;
    }
  };
}

/**
 * Not in the notes' table (the SQLite twin of W6): a failing migration must leave nothing of itself behind, but
 * better-sqlite3's `exec()` (the stock `executeScript`) runs statement after statement with no transaction.
 * So the script runs inside BEGIN … COMMIT and is rolled back on error.
 *
 * Prisma's table-redefinition scripts switch `PRAGMA foreign_keys=OFF` first, and that pragma is a no-op inside
 * a transaction: left on, `DROP TABLE` of a parent table would run its ON DELETE CASCADE actions and delete
 * child rows. Such scripts therefore get foreign keys switched off before BEGIN and back on after the end.
 */
function makeSqliteScriptsAtomic(adapter) {
  const executeScript = adapter.executeScript.bind(adapter);
  const db = adapter.client; // the better-sqlite3 Database behind the stock adapter
  adapter.executeScript = async (script) => {
    if (db.inTransaction) return executeScript(script); // inside a transaction of the engine's: it decides
    const turnsForeignKeysOff = /PRAGMA\s+foreign_keys\s*=\s*(OFF|0|false|no)\b/i.test(script);
    const restoreForeignKeys = turnsForeignKeysOff && Number(db.pragma("foreign_keys", { simple: true })) === 1;
    if (restoreForeignKeys) db.pragma("foreign_keys = OFF");
    try {
      db.exec("BEGIN");
      try {
        await executeScript(script);
        db.exec("COMMIT");
      } catch (error) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw error;
      }
    } finally {
      if (restoreForeignKeys) db.pragma("foreign_keys = ON");
    }
  };
}

class PostgresMigrationFactory {
  provider = "postgres";
  adapterName = "@prisma/adapter-pg";

  constructor(url, shadowDatabaseUrl, connections) {
    this.url = url;
    this.shadowDatabaseUrl = shadowDatabaseUrl;
    this.connections = connections;
  }

  connect() {
    return this.connectTo(this.url);
  }

  /**
   * W5: the stock `connectToShadowDb` drops the shadow database while its own pool is still connected
   * ("database … is being accessed by other users") and leaves it behind. Here: CREATE DATABASE through a main
   * connection, and on dispose end the shadow pool first, then DROP, then close the main connection.
   * A configured `shadowDatabaseUrl` is used instead, emptied first (what the native engine does with it).
   */
  async connectToShadowDb() {
    if (this.shadowDatabaseUrl) {
      const shadow = await this.connectTo(this.shadowDatabaseUrl);
      await shadow.executeScript("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;");
      return shadow;
    }
    const main = await this.connect();
    const database = `prisma_migrate_shadow_db_${randomUUID()}`;
    await main.executeScript(`CREATE DATABASE ${quoteIdentifier(database)}`);
    const shadow = await this.connectTo(postgresUrlWithDatabase(this.url, database));
    const disposeShadowPool = shadow.dispose;
    shadow.dispose = once(async () => {
      await disposeShadowPool();
      try {
        await main.executeScript(`DROP DATABASE IF EXISTS ${quoteIdentifier(database)}`);
      } finally {
        await main.dispose();
      }
    });
    return shadow;
  }

  async connectTo(url) {
    // Loaded here, not at the top: migrating a SQLite database (every SQLite server's start) does not need them.
    const [{ PrismaPg }, { default: pg }] = await Promise.all([import("@prisma/adapter-pg"), import("pg")]);
    // W4: discrete host/port/user/password/database (see postgresConfig). W3: charAsTextClient.
    const poolConfig = { ...postgresConfig(url), Client: charAsTextClient(pg) };
    const adapter = await new PrismaPg(poolConfig, { schema: postgresSchemaOf(url) }).connect();
    runScriptsAsOneStatement(adapter);
    this.connections.recordScriptErrors(adapter);
    return this.connections.track(adapter);
  }
}

/**
 * W6: the stock `executeScript` splits the script on ";" and runs the pieces one by one: not atomic (a failing
 * migration keeps its earlier statements) and wrong for ";" inside strings or $$ bodies. One parameterless
 * query goes through PostgreSQL's simple protocol, which runs all its statements in one implicit transaction,
 * exactly like the native engine.
 */
function runScriptsAsOneStatement(adapter) {
  adapter.executeScript = async (script) => {
    await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
  };
}

/**
 * W3: adapter-pg 7.10 cannot map the column type OID 18 (`"char"`, e.g. `pg_constraint.contype` that the
 * engine's schema describer reads) and fails with "Column type 'char' could not be deserialized". Its values
 * arrive as one-character strings anyway, so this client reports such columns as text (OID 25). It is only
 * used by the migration pools, so nothing else in the process is affected.
 */
const charAsTextClient = once(
  (pg) =>
    class CharAsTextClient extends pg.Client {
      query(config, values, callback) {
        const isSubmittable = typeof config?.submit === "function";
        if (isSubmittable) return super.query(config, values, callback);
        if (typeof values === "function") return super.query(config, withCharAsText(values));
        if (typeof callback === "function") return super.query(config, values, withCharAsText(callback));
        return super.query(config, values).then(reportCharAsText);
      }
    },
);

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

function withCharAsText(callback) {
  return (error, result) => callback(error, error ? result : reportCharAsText(result));
}

function reportCharAsText(result) {
  for (const single of Array.isArray(result) ? result : [result]) {
    for (const field of single?.fields ?? []) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
  }
  return result;
}

function once(fn) {
  let called = false;
  let result;
  return (...args) => {
    if (!called) [called, result] = [true, fn(...args)];
    return result;
  };
}

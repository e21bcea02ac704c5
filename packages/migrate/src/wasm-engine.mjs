// The Prisma schema engine compiled to WebAssembly (@prisma/schema-engine-wasm), driven through the driver
// adapters of ./adapters.mjs: the engine of both the `schema-engine` shim (behind the stock Prisma CLI) and of
// migrateDatabase. W-numbers refer to the workaround table of the prisma-offline notes.
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createMigrationAdapterFactory } from "./adapters.mjs";
import { createDatabase, dropDatabase } from "./databases.mjs";

/** Include everything (prisma.config.ts `tables.external` / `enums.external` are not used here). */
export const NO_FILTERS = Object.freeze({ externalTables: [], externalEnums: [] });

let gluePromise;

/** The wasm-bindgen glue module, its wasm instantiated once per process. */
export function loadSchemaEngineWasm() {
  gluePromise ??= instantiateSchemaEngineWasm();
  return gluePromise;
}

/** The engine's git hash, e.g. "59be4fda12412a79eeb9c2ae727b6aa723593323". */
export async function schemaEngineVersion() {
  return (await loadSchemaEngineWasm()).version();
}

/**
 * W12: the package's entry point does `import * as wasm from "./schema_engine_bg.wasm"`, which Node only runs
 * with --experimental-wasm-modules. So the glue module is imported alone and the wasm is instantiated by hand
 * with it as import object, as the package's entry would do.
 */
async function instantiateSchemaEngineWasm() {
  const gluePath = createRequire(import.meta.url).resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const glue = await import(pathToFileURL(gluePath).href);
  const bytes = await fs.readFile(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": withUnrefTimers(glue) });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return glue;
}

/**
 * W10: the engine arms a 60 s `setTimeout` (the time limit of its PostgreSQL advisory lock) and never clears
 * it, so a process that is done still waits up to a minute before it can exit. The timers are unref'd: they
 * still fire while the process has other work, but no longer keep it alive.
 */
function withUnrefTimers(glue) {
  const imports = { ...glue };
  for (const name of Object.keys(glue).filter((key) => key.startsWith("__wbg_setTimeout_"))) {
    imports[name] = (callback, milliseconds) => setTimeout(callback, milliseconds >>> 0).unref();
  }
  return imports;
}

/**
 * Reads a migrations folder the way the Prisma CLI does (sorted `<name>/migration.sql` + migration_lock.toml)
 * into the engine's MigrationList. A missing folder is an empty list.
 */
export async function readMigrationsList(migrationsDir, shadowDbInitScript = "") {
  const baseDir = path.resolve(migrationsDir);
  const lockfileContent = await fs.readFile(path.join(baseDir, "migration_lock.toml"), "utf8").catch(() => null);
  const entries = await fs.readdir(baseDir, { withFileTypes: true }).catch(() => []);
  const directories = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const migrationDirectories = await Promise.all(
    directories.sort((a, b) => a.localeCompare(b)).map((name) => readMigrationDirectory(baseDir, name)),
  );
  return {
    baseDir,
    lockfile: { path: "migration_lock.toml", content: lockfileContent },
    shadowDbInitScript,
    migrationDirectories,
  };
}

async function readMigrationDirectory(baseDir, name) {
  const content = await fs
    .readFile(path.join(baseDir, name, "migration.sql"), "utf8")
    .then((value) => ({ tag: "ok", value }))
    .catch((error) => ({ tag: "error", value: error.message }));
  return { path: name, migrationFile: { path: "migration.sql", content } };
}

/**
 * Opens the wasm schema engine on the database at `url`.
 * @param {{ url: string, shadowDatabaseUrl?: string, schemaFiles?: [string, string][], log?: (line: string) => void, cwd?: string }} options
 *   schemaFiles: [path, content] of the Prisma schema files (what `--datamodels` gives the native engine);
 *   cwd: what relative `file:` paths are resolved against (default: process.cwd()).
 */
export async function openMigrationEngine(options) {
  const engine = new MigrationEngine(await loadSchemaEngineWasm(), options);
  await engine.start();
  return engine;
}

/**
 * The wasm SchemaEngine with the engine-level workarounds (W1, W8, W9). Methods take and return what the
 * JSON-RPC methods of the native engine do; `close()` must be called when done.
 */
export class MigrationEngine {
  #glue;
  #options;
  #adapters;
  #engine;

  constructor(glue, options) {
    this.#glue = glue;
    this.#options = options;
  }

  get provider() {
    return this.#adapters.provider;
  }

  /** The database's own message for the last failed migration script (the engine only keeps a rewording). */
  get lastScriptError() {
    return this.#adapters.lastScriptError();
  }

  async start() {
    const { url, shadowDatabaseUrl, schemaFiles = [], log = () => {}, cwd } = this.#options;
    this.#adapters = createMigrationAdapterFactory(url, { shadowDatabaseUrl, cwd });
    const datamodels = schemaFiles.length > 0 ? schemaFiles : undefined; // the engine rejects an empty list
    const onLog = (line) => log(String(line).trimEnd());
    this.#engine = await this.#glue.SchemaEngine.new({ datamodels }, onLog, this.#adapters.bound);
  }

  async close() {
    this.#engine?.free();
    this.#engine = undefined;
    await this.#adapters?.closeAll();
  }

  /** Any engine method, unchanged (the ones with workarounds below go through here too). */
  async call(method, input) {
    if (typeof this.#engine?.[method] !== "function") throw new Error(`The wasm schema engine has no method ${method}`);
    try {
      return await this.#engine[method](input);
    } catch (error) {
      throw this.#withAdapterError(error);
    }
  }

  /**
   * Errors a driver adapter threw that are not DriverAdapterErrors reach us as "… External error id#N"; the
   * original error sits in the bound factory's registry.
   */
  #withAdapterError(error) {
    const id = /id#(\d+)/.exec(String(error?.message))?.[1];
    const original = id === undefined ? undefined : this.#adapters.bound.errorRegistry.consumeError(Number(id));
    if (original?.error instanceof Error) error.message += ` (${original.error.message})`;
    return error;
  }

  applyMigrations(input) {
    return this.call("applyMigrations", input);
  }

  devDiagnostic(input) {
    return this.#withMigrationsTable(input.migrationsList, () => this.call("devDiagnostic", input));
  }

  markMigrationApplied(input) {
    return this.#withMigrationsTable(input.migrationsList, () => this.call("markMigrationApplied", input));
  }

  /** W1, read-only variant: answer what the native engine answers for a database without migrations table. */
  async diagnoseMigrationHistory(input) {
    try {
      return await this.call("diagnoseMigrationHistory", input);
    } catch (error) {
      if (!isMissingMigrationsTable(error)) throw error;
      const names = input.migrationsList.migrationDirectories.map((directory) => directory.path);
      return {
        editedMigrationNames: [],
        failedMigrationNames: [],
        hasMigrationsTable: false,
        history: names.length > 0 ? { diagnostic: "databaseIsBehind", unappliedMigrationNames: names } : null,
      };
    }
  }

  /**
   * W1: on a SQLite database without `_prisma_migrations` the wasm engine passes the adapter's
   * TableDoesNotExist on (P1014) instead of treating the history as empty. Applying an empty migration list
   * creates the table (and fails with P3005 on a non-empty unmanaged database, as native `deploy` does);
   * then the command is retried.
   */
  async #withMigrationsTable(migrationsList, command) {
    try {
      return await command();
    } catch (error) {
      if (!isMissingMigrationsTable(error)) throw error;
      await this.applyMigrations({
        migrationsList: { ...migrationsList, migrationDirectories: [] },
        filters: NO_FILTERS,
      });
      return command();
    }
  }

  evaluateDataLoss(input) {
    return this.#withShadowDatabaseCache(input, () => this.call("evaluateDataLoss", input));
  }

  createMigration(input) {
    return this.#withShadowDatabaseCache(input, () => this.call("createMigration", input));
  }

  /**
   * W9: `evaluateDataLoss`/`createMigration` get no adapter factory for the shadow database and only read a
   * cache that `devDiagnostic` fills only sometimes (not after `migrate dev --create-only`): "SQLite shadow DB
   * must be provided through an external factory". `diagnoseMigrationHistory` with the shadow database fills
   * it; then the command is retried.
   */
  async #withShadowDatabaseCache(input, command) {
    try {
      return await command();
    } catch (error) {
      if (!/shadow DB must be provided through an external factory/i.test(String(error?.message))) throw error;
      const { migrationsList, filters = NO_FILTERS } = input;
      await this.call("diagnoseMigrationHistory", { migrationsList, optInToShadowDatabase: true, filters });
      return command();
    }
  }

  /**
   * W8: on SQLite the wasm `reset` only deletes the rows of every table, and even dropping the tables leaves
   * `sqlite_sequence`, so the database still counts as non-empty (P3005 on the next deploy). Like the native
   * engine: close every connection, delete the file (and its journals), create an empty one, start again.
   */
  async reset(input) {
    if (this.provider !== "sqlite") return this.call("reset", input);
    const { url, cwd } = this.#options;
    await this.close();
    await dropDatabase(url, cwd);
    await createDatabase(url, cwd);
    await this.start();
  }
}

function isMissingMigrationsTable(error) {
  return error?.code === "P1014" && String(error.message).includes("_prisma_migrations");
}

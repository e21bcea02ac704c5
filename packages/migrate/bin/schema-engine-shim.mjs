#!/usr/bin/env node
// A stand-in for Prisma's native `schema-engine` binary, on the wasm schema engine: point
// PRISMA_SCHEMA_ENGINE_BINARY at this file and the stock Prisma CLI (7.10.1) runs `migrate dev|deploy|status|
// diff|reset`, `db push|execute|pull` through it. It speaks the binary's protocol, as used by the CLI's
// SchemaEngineCLI class:
//   schema-engine --version
//   schema-engine [--datamodels <file>]… [--datasource <json>] cli can-connect-to-database|create-database|drop-database
//       one-shot; JSON log lines on stderr, exit code 1 and an ERROR line with error_code/message on failure
//   schema-engine [--datamodels <file>]… [--datasource <json>]
//       JSON-RPC 2.0 server: one request per line on stdin, one response per line on stdout, JSON logs on
//       stderr; it may itself ask the client to `print` text. Exits when stdin closes.
import fs from "node:fs";
import readline from "node:readline";
import { createDatabase, dropDatabase, probeDatabase } from "../src/databases.mjs";
import { openMigrationEngine, schemaEngineVersion } from "../src/wasm-engine.mjs";

/** Options of the native binary that the wasm engine has no use for (they take a value). */
const IGNORED_OPTIONS = new Set(["--enabled-preview-features", "--extension-types"]);

function parseArguments(argv) {
  const parsed = { datamodels: [], datasource: undefined, version: false, cliCommand: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--version" || arg === "-V") parsed.version = true;
    else if (arg === "--datamodels" || arg === "-d") {
      while (argv[i + 1] !== undefined && !argv[i + 1].startsWith("-") && argv[i + 1] !== "cli") {
        parsed.datamodels.push(argv[++i]);
      }
    } else if (arg === "--datasource") parsed.datasource = JSON.parse(argv[++i]);
    else if (IGNORED_OPTIONS.has(arg)) i++;
    else if (arg === "cli") parsed.cliCommand = argv[++i];
    else throw new Error(`schema-engine shim: unknown argument ${arg}`);
  }
  return parsed;
}

// ---- one-shot commands -------------------------------------------------------------------------------------

const oneShotCommands = {
  "can-connect-to-database": async (url) => {
    const problem = await probeDatabase(url);
    if (problem) throw engineError(problem.code, problem.message);
    return "Connection successful";
  },
  "create-database": async (url) => `Database '${await createDatabase(url)}' was successfully created.`,
  "drop-database": async (url) => {
    await dropDatabase(url);
    return "The database was successfully dropped.";
  },
};

async function runOneShot(command, url) {
  logLine("INFO", { message: "Starting schema engine CLI", git_hash: await schemaEngineVersion() });
  try {
    if (!oneShotCommands[command]) throw new Error(`Unknown command: cli ${command}`);
    if (!url) throw engineError("P1012", "The datasource URL is missing (datasource.url in the Prisma config)");
    logLine("INFO", { message: await oneShotCommands[command](url) });
    return 0;
  } catch (error) {
    // The CLI looks for this exact shape (target schema_engine::logger, fields.error_code and fields.message).
    logLine("ERROR", { is_panic: false, error_code: error.code ?? "", message: error.message });
    return 1;
  }
}

function engineError(code, message) {
  return Object.assign(new Error(message), { code });
}

function logLine(level, fields, target = "schema_engine::logger") {
  process.stderr.write(`${JSON.stringify({ timestamp: new Date().toISOString(), level, fields, target })}\n`);
}

// ---- JSON-RPC server ---------------------------------------------------------------------------------------

async function serveJsonRpc({ datamodels, datasource }) {
  const rpc = new JsonRpcConnection();
  const engineOptions = {
    url: datasource?.url,
    shadowDatabaseUrl: datasource?.shadowDatabaseUrl,
    schemaFiles: datamodels.map((file) => [file, fs.readFileSync(file, "utf8")]),
    log: (line) => process.stderr.write(`${line}\n`), // already the native engine's JSON log format
  };
  let enginePromise;
  const engine = () => {
    if (!engineOptions.url)
      throw new Error("The wasm schema engine needs a datasource URL (datasource.url in the Prisma config)");
    enginePromise ??= openMigrationEngine(engineOptions);
    return enginePromise;
  };

  await rpc.serve(async (method, params) => {
    const handler = rpcMethods[method];
    if (!handler) throw new Error(`The wasm schema-engine shim does not support the RPC method ${method}`);
    return handler({ engine, params: params ?? undefined, rpc, datasourceUrl: engineOptions.url });
  });
  if (enginePromise) await (await enginePromise).close();
}

/** To the MigrationEngine method that carries a workaround (W1, W8, W9). */
const forward =
  (method) =>
  async ({ engine, params }) =>
    (await engine())[method](params);
/** Straight to the wasm engine method of the same name. */
const forwardCall =
  (method) =>
  async ({ engine, params }) =>
    (await engine()).call(method, params);

const rpcMethods = {
  createMigration: forward("createMigration"),
  devDiagnostic: forward("devDiagnostic"),
  diagnoseMigrationHistory: forward("diagnoseMigrationHistory"),
  evaluateDataLoss: forward("evaluateDataLoss"),
  markMigrationApplied: forward("markMigrationApplied"),
  reset: forward("reset"),
  applyMigrations: forwardCall("applyMigrations"),
  markMigrationRolledBack: forwardCall("markMigrationRolledBack"),
  dbExecute: forwardCall("dbExecute"),
  ensureConnectionValidity: forwardCall("ensureConnectionValidity"),
  introspect: forwardCall("introspect"),
  introspectSql: forwardCall("introspectSql"),
  schemaPush: forwardCall("schemaPush"),
  debugPanic: forwardCall("debugPanic"),
  getDatabaseVersion: async ({ engine, params }) => (await engine()).call("version", params ?? null),
  createDatabase: async ({ params, datasourceUrl }) => {
    const url = params?.datasource?.tag === "ConnectionString" ? params.datasource.url : datasourceUrl;
    return { databaseName: await createDatabase(url) };
  },
  /**
   * W11: the native engine does not return the diff text: it sends it to the CLI in a `print` request, which
   * the CLI writes to its stdout. The wasm engine returns it as `stdout` instead, so the shim does the asking.
   */
  diff: async ({ engine, params, rpc }) => {
    const { stdout, ...result } = await (await engine()).call("diff", params);
    if (stdout) await rpc.request("print", { content: stdout.replace(/\n$/, "") });
    return result;
  },
};

class JsonRpcConnection {
  #nextId = 1;
  #pendingRequests = new Map();

  /** Answers requests one at a time, in order, until stdin closes. */
  async serve(handle) {
    let queue = Promise.resolve();
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      if (message.method === undefined) this.#settle(message);
      else queue = queue.then(() => this.#answer(message, handle));
    }
    await queue;
  }

  async #answer({ id, method, params }, handle) {
    try {
      const result = await handle(method, params);
      this.#send({ jsonrpc: "2.0", id, result: result ?? {} });
    } catch (error) {
      this.#send({ jsonrpc: "2.0", id, error: toJsonRpcError(error) });
      // A panic leaves the wasm instance unusable; the native engine exits with 101 then, and so does the shim.
      if (error instanceof WebAssembly.RuntimeError) process.exit(101);
    }
  }

  /** A request from the engine side to the CLI (only `print` exists). */
  request(method, params) {
    const id = this.#nextId++;
    const answered = new Promise((resolve, reject) => this.#pendingRequests.set(id, { resolve, reject }));
    this.#send({ jsonrpc: "2.0", id, method, params });
    return answered;
  }

  #settle({ id, result, error }) {
    const pending = this.#pendingRequests.get(id);
    this.#pendingRequests.delete(id);
    if (error) pending?.reject(new Error(error.message));
    else pending?.resolve(result);
  }

  #send(message) {
    process.stdout.write(`${JSON.stringify(message)}\n`);
  }
}

/** The native engine's error rendering: the Prisma error code and message live in `data`. */
function toJsonRpcError(error) {
  const isPanic = error instanceof WebAssembly.RuntimeError;
  const data = isPanic
    ? { is_panic: true, message: error.message, backtrace: error.stack ?? null }
    : { is_panic: false, message: error?.message ?? String(error), meta: error?.meta ?? null, error_code: error?.code };
  return { code: 4466, message: "An error happened. Check the data field for details.", data };
}

async function main() {
  const args = parseArguments(process.argv.slice(2));
  if (args.version) process.stdout.write(`schema-engine-cli ${await schemaEngineVersion()} (wasm shim)\n`);
  else if (args.cliCommand) process.exitCode = await runOneShot(args.cliCommand, args.datasource?.url);
  else await serveJsonRpc(args);
  // W10: nothing may keep a finished engine process alive (the CLI waits for it to exit).
  process.exit();
}

await main();

import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { createDb, type DbHandle, DEFAULT_SERIES_CAP, ensureAdmin } from "@calendar/core";
import { needsMigrating } from "@calendar/migrate";
import type { FastifyInstance } from "fastify";
import { ConfigError, importCapsOf, loadConfig, loadDotEnv, seriesLimitsOf } from "./config.ts";
import { announcement } from "./server.announce.ts";
import { buildServer, type ServerOptions } from "./server.ts";

/** Exit code for a configuration error (EX_CONFIG). */
const EXIT_CONFIG = 78;
/** Exit code when the address cannot be listened on (EX_UNAVAILABLE). */
const EXIT_UNAVAILABLE = 69;

/** Why an address cannot be listened on, in one line, for the errors people cause; undefined for the others. */
function listenFailure(error: unknown, host: string, port: number): string | undefined {
  const code = error instanceof Error && "code" in error ? error.code : undefined;
  const where = `${host}:${port}`;
  if (code === "EADDRINUSE") return `Cannot listen on ${where}: the port is in use (set PORT to another one).`;
  if (code === "EACCES") return `Cannot listen on ${where}: permission denied (ports below 1024 need privileges).`;
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return `Cannot listen on ${where}: no such address on this machine (check HOST).`;
  }
  return undefined;
}

/** The migration runner beside this module: the built one next to dist/main.mjs, the source under tsx. */
const MIGRATE_CHILD = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "./migrate.child.ts" : "./migrate.child.mjs", import.meta.url),
);

/**
 * Applies the pending migrations in a child process (see migrate.child.ts), which reports a failure itself: the
 * server then exits with its code. Most starts have nothing to apply and find that out without starting the engine.
 */
async function migrate(url: string): Promise<void> {
  if (!(await needsMigrating(url))) return;
  const child = spawn(process.execPath, [...process.execArgv, MIGRATE_CHILD], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: "inherit",
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) process.exit(code ?? 1);
}

type Config = ReturnType<typeof loadConfig>;

/** The series worker extends the horizons once a day. */
const SERIES_HORIZON_EVERY_MS = 86_400_000;

/** The server the configuration describes, over the database of `handle`. */
function serverOptionsOf(config: Config, handle: DbHandle): ServerOptions {
  return {
    handle,
    site: {
      timezone: config.CALENDAR_TIMEZONE,
      changesRetentionDays: config.CALENDAR_CHANGES_RETENTION_DAYS,
      siteUrl: config.CALENDAR_SITE_URL,
      allowInsecureWebhooks: config.CALENDAR_WEBHOOKS_ALLOW_INSECURE,
      importCaps: importCapsOf(config),
      webhookPorts: config.CALENDAR_WEBHOOKS_PORTS,
      seriesLimits: seriesLimitsOf(config),
    },
    bodyLimit: config.CALENDAR_BODY_LIMIT,
    requestTimeout: config.CALENDAR_REQUEST_TIMEOUT,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CALENDAR_CORS_ORIGINS,
    writesPerMinute: config.CALENDAR_RATE_LIMIT,
    seriesOccurrencesPerHour: config.CALENDAR_SERIES_OCCURRENCES_PER_HOUR,
    authFailuresPerMinute: config.CALENDAR_AUTH_FAILURE_LIMIT,
    authFailureIpv6Prefix: config.CALENDAR_AUTH_FAILURE_IPV6_PREFIX,
    publicUrl: config.CALENDAR_PUBLIC_URL,
    cacheMaxAge: config.CALENDAR_CACHE_MAX_AGE,
    cacheBytes: config.CALENDAR_CACHE_MB * 1024 * 1024,
    logLevel: config.LOG_LEVEL,
    ical: {
      maxEvents: config.CALENDAR_ICAL_MAX_EVENTS,
      siteName: config.CALENDAR_SITE_NAME,
      importBodyLimit: config.CALENDAR_IMPORT_BODY_LIMIT,
      seriesCap: DEFAULT_SERIES_CAP,
    },
    webhooks: {
      pollMs: config.CALENDAR_WEBHOOKS_POLL_MS,
      timeoutMs: config.CALENDAR_WEBHOOKS_TIMEOUT_MS,
      retryBaseMs: config.CALENDAR_WEBHOOKS_RETRY_BASE_MS,
      retryForMs: config.CALENDAR_WEBHOOKS_RETRY_SECONDS * 1_000,
      disableAfterMs: config.CALENDAR_WEBHOOKS_DISABLE_AFTER_SECONDS * 1_000,
      allowInsecure: config.CALENDAR_WEBHOOKS_ALLOW_INSECURE,
      ports: config.CALENDAR_WEBHOOKS_PORTS,
      retentionDays: config.CALENDAR_CHANGES_RETENTION_DAYS,
      // Part of the shutdown deadline: a delivery still unanswered then is sent again after the restart.
      shutdownGraceMs: Math.min(config.CALENDAR_WEBHOOKS_TIMEOUT_MS, config.CALENDAR_SHUTDOWN_TIMEOUT / 2),
    },
    series: { intervalMs: SERIES_HORIZON_EVERY_MS, shutdownGraceMs: config.CALENDAR_SHUTDOWN_TIMEOUT / 2 },
    // Production skips the check of every response against its schema; development and tests keep it.
    outputValidation: process.env.NODE_ENV === "production" ? "off" : "exact",
  };
}

/**
 * Graceful shutdown: stop accepting, let in-flight requests finish (up to the deadline), close the database.
 * A signal may come twice (Ctrl-C reaches the whole process group, and pnpm forwards it again): repeats are
 * ignored, and the process exits at once when done, since a repeat arriving while Node winds down would kill it
 * (and `pnpm start` would report a failure).
 */
function stopOnSignals(server: FastifyInstance, handle: DbHandle, deadlineMs: number): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.log.info({ signal }, "shutting down");
    const deadline = setTimeout(() => {
      server.log.error("in-flight requests did not finish before the shutdown deadline");
      process.exit(1);
    }, deadlineMs);
    deadline.unref();
    await server.close();
    await handle.close();
    clearTimeout(deadline);
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  await migrate(config.DATABASE_URL);
  const handle = await createDb(config.DATABASE_URL, { sqliteSynchronous: config.CALENDAR_SQLITE_SYNCHRONOUS });
  if ((await ensureAdmin(handle.db, config.CALENDAR_ADMIN_TOKEN)) === "revoked") {
    console.error("CALENDAR_ADMIN_TOKEN names a revoked token, which stays revoked: set a new one.");
  }
  const server = await buildServer(serverOptionsOf(config, handle));
  stopOnSignals(server, handle, config.CALENDAR_SHUTDOWN_TIMEOUT);
  try {
    await server.listen({
      host: config.HOST,
      port: config.PORT,
      listenTextResolver: (address) => announcement(address, config.DATABASE_URL),
    });
  } catch (error) {
    const failure = listenFailure(error, config.HOST, config.PORT);
    if (failure === undefined) throw error;
    console.error(failure);
    await handle.close();
    process.exit(EXIT_UNAVAILABLE);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(EXIT_CONFIG);
  }
  console.error(error);
  process.exit(1);
});

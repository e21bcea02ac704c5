import { createDb, ensureAdmin } from "@calendar/core";
import { migrateDatabase } from "@calendar/migrate";
import { ConfigError, loadConfig, loadDotEnv } from "./config.ts";
import { buildServer } from "./server.ts";

/** Exit code for a configuration error (EX_CONFIG). */
const EXIT_CONFIG = 78;

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  await migrateDatabase(config.DATABASE_URL);
  const handle = await createDb(config.DATABASE_URL);
  if (config.CALENDAR_ADMIN_TOKEN) await ensureAdmin(handle.db, config.CALENDAR_ADMIN_TOKEN);
  const server = await buildServer({
    handle,
    site: { timezone: config.CALENDAR_TIMEZONE },
    bodyLimit: config.CALENDAR_BODY_LIMIT,
    requestTimeout: config.CALENDAR_REQUEST_TIMEOUT,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CALENDAR_CORS_ORIGINS,
    writesPerMinute: config.CALENDAR_RATE_LIMIT,
    logLevel: config.LOG_LEVEL,
  });

  // Graceful shutdown: stop accepting, let in-flight requests finish (up to the deadline), close the database.
  const shutdown = async (signal: string) => {
    server.log.info({ signal }, "shutting down");
    const deadline = setTimeout(() => {
      server.log.error("in-flight requests did not finish before the shutdown deadline");
      process.exit(1);
    }, config.CALENDAR_SHUTDOWN_TIMEOUT);
    deadline.unref();
    await server.close();
    await handle.close();
    clearTimeout(deadline);
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  await server.listen({ host: config.HOST, port: config.PORT });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(EXIT_CONFIG);
  }
  console.error(error);
  process.exit(1);
});

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
  const handle = createDb(config.DATABASE_URL);
  if (config.CALENDAR_ADMIN_TOKEN) await ensureAdmin(handle.db, config.CALENDAR_ADMIN_TOKEN);
  const server = await buildServer({
    handle,
    site: { timezone: config.CALENDAR_TIMEZONE },
    bodyLimit: config.CALENDAR_BODY_LIMIT,
    logger: { level: config.LOG_LEVEL },
  });
  const stop = async () => {
    await server.close();
    await handle.close();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
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

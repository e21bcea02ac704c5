/**
 * Applies the pending migrations to DATABASE_URL, then exits: the server (main.ts) runs it in a process of its own
 * when there is something to apply, so that the schema engine's WebAssembly memory (~25 MB) is returned when it is
 * done instead of staying in the server for good. A failure is printed as the server prints it, with exit code 1.
 */
import { migrateDatabase } from "@calendar/migrate";

try {
  await migrateDatabase(process.env.DATABASE_URL ?? "");
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}

import { createDb, derivedDb } from "@calendar/core";
import { buildServer } from "../src/server.ts";

/**
 * The yardstick of the outbox's cost: the calendar's own server, built the same way twice, once as is and once
 * (`CALENDAR_BENCH_OUTBOX=off`) with the outbox's statement (`Change` rows, `createMany` in every write's
 * transaction) turned into a no-op by a Prisma query extension (the other passes it through the same extension);
 * everything else of a write (the change version included, which the HTTP caching needs anyway) stays. "event
 * create (outbox)" is the first's req/s as a share of the second's. Started by the benchmark with DATABASE_URL and PORT.
 */

const url = process.env.DATABASE_URL ?? "";
const handle = await createDb(url);
// Both servers go through a query extension, so that its own cost is on both sides of the comparison.
const outbox = process.env.CALENDAR_BENCH_OUTBOX !== "off";
const db = derivedDb(
  handle.db,
  handle.db.$extends({
    query: { change: { createMany: async ({ args, query }) => (outbox ? query(args) : { count: 0 }) } },
  }),
);
const server = await buildServer({
  handle: { ...handle, db },
  site: { timezone: "UTC" },
  bodyLimit: 1_048_576,
  outputValidation: "off",
});
await server.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });
process.once("SIGTERM", () => void server.close().then(() => handle.close()));

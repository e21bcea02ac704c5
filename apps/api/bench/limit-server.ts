import Fastify from "fastify";
import { registerIcalLimit } from "./ical-limit.ts";
import { limitDriver } from "./limit.driver.ts";
import { dialectOf, LIMIT_ROUTES, type Query } from "./limit.statements.ts";

/**
 * The benchmark's "limit": a bare Fastify server that answers each read scenario with ONE hand-written SQL
 * statement returning everything the API's response is made of, built into JSON by the database and sent as is
 * (`limit.statements.ts`). Nothing else happens per request (no validation, no presentation), so its req/s is
 * what the machine can do for that read; the API's req/s is reported as a share of it. Started by the benchmark
 * with DATABASE_URL and PORT; the site time zone is UTC, as the benchmarked server's.
 */

const driver = limitDriver(process.env.DATABASE_URL ?? "");
const dialect = dialectOf(driver.provider);
const server = Fastify({ logger: false });

for (const route of LIMIT_ROUTES) {
  server.get<{ Params: Record<string, string> }>(`/cal/events/v1${route.path}`, async (request, reply) => {
    const body = await driver.body(route.statement(dialect, request.params, request.query as Query));
    reply.type("application/json");
    return body ?? "null";
  });
}

registerIcalLimit(server, driver, dialect);

await server.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });

import Fastify, { type FastifyInstance } from "fastify";
import { registerIcalLimit } from "./ical-limit.ts";
import type { LimitDriver } from "./limit.driver.ts";
import { dialectOf, LIMIT_ROUTES, type Query } from "./limit.statements.ts";

/**
 * The benchmark's "limit": a bare Fastify server that answers each read scenario with ONE hand-written SQL
 * statement returning everything the API's response is made of, built into JSON by the database and sent as is
 * (`limit.statements.ts`); the iCalendar feed's rows serialized with the API's library (`ical-limit.ts`). Nothing
 * else happens per request (no validation, no presentation), so its req/s is what the machine can do for that
 * read; the API's req/s is reported as a share of it.
 */
export function buildLimitServer(driver: LimitDriver): FastifyInstance {
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
  return server;
}

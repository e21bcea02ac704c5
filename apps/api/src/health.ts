import { type DbHandle, readerOf } from "@calendar/core";
import type { FastifyInstance } from "fastify";
import { restError } from "./rest/envelope.ts";
import { sendRestError } from "./rest/errors.ts";

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers) for load balancers. */
export function registerHealthRoutes(server: FastifyInstance, handle: DbHandle): void {
  server.get("/healthz", async () => ({ status: "ok" }));
  server.get("/readyz", async (request, reply) => {
    try {
      // On the driver, as the reads are: a probe every few seconds must not load Prisma's query compiler.
      await readerOf(handle.db).json("SELECT '1'", []);
      return { status: "ready", database: handle.provider };
    } catch (error) {
      request.log.warn({ err: error }, "readiness check failed");
      return sendRestError(reply, restError("rest_database_unavailable"));
    }
  });
}

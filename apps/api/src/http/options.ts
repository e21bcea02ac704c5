import type { AnyTRPCRouter } from "@trpc/server";
import type { FastifyInstance } from "fastify";
import { NO_ROUTE } from "../rest/envelope.ts";
import { sendRestError } from "../rest/errors.ts";
import { allowedMethodsResolver } from "./allowed-methods.ts";

/**
 * `OPTIONS` on any route: 204 with `Allow`, or 404 `rest_no_route` where nothing is. A CORS preflight (it names
 * `Access-Control-Request-Method`) is left to the CORS plugin when one is registered.
 */
export function registerOptionsAnswers(server: FastifyInstance, router: AnyTRPCRouter, corsEnabled: boolean): void {
  const allowedMethods = allowedMethodsResolver(server, router);
  server.addHook("onRequest", async (request, reply) => {
    if (request.method !== "OPTIONS") return;
    if (corsEnabled && request.headers["access-control-request-method"] !== undefined) return;
    const methods = allowedMethods(request.originalUrl.split("?")[0] ?? "");
    if (!methods) return sendRestError(reply, NO_ROUTE);
    return reply
      .code(204)
      .header("allow", [...methods].join(", "))
      .send();
  });
}

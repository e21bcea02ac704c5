import {
  appRouter,
  type DbHandle,
  type OutputValidation,
  restRouter,
  type Site,
  setOutputValidation,
} from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import { writeClientError } from "./client-errors.ts";
import { registerDraining } from "./draining.ts";
import { registerHealthRoutes } from "./health.ts";
import { loggerOptions, registerRequestLog } from "./logging.ts";
import { type ProtectionOptions, registerProtection } from "./protection.ts";
import { isRestPath } from "./rest/base-paths.ts";
import { registerDiscoveryRoutes } from "./rest/discovery.ts";
import { NO_ROUTE, restError } from "./rest/envelope.ts";
import { handleRestError, restErrorFromFastify, sendRestError } from "./rest/errors.ts";
import { registerExplorerRoutes } from "./rest/explorer.ts";
import { restPlugin } from "./rest/plugin.ts";
import { parseQueryString } from "./rest/request.ts";
import { trpcPlugin } from "./trpc/plugin.ts";

export interface ServerOptions extends Partial<ProtectionOptions> {
  handle: DbHandle;
  site: Site;
  bodyLimit: number;
  /** Milliseconds a client has to send a whole request. */
  requestTimeout?: number;
  trustProxy?: boolean;
  /** A pino level; no logging when absent. */
  logLevel?: string;
  /** The routers to serve; the calendar's own by default (tests of the adapters pass their own). */
  routers?: { rest: AnyTRPCRouter; app: AnyTRPCRouter };
  /** Responses checked against their schemas (`exact`, the default) or not (`off`, production). */
  outputValidation?: OutputValidation;
}

const NOT_FOUND = restError(404, "not_found", "Nothing here. The API lives under /cal/events/v1.");

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const requestTimeout = options.requestTimeout ?? 30_000;
  const server = Fastify({
    logger: options.logLevel ? loggerOptions(options.logLevel) : false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit,
    requestTimeout,
    // Node enforces the timeout on a body still arriving only when given at construction, and checks for
    // requests past it every 30 s by default: every second honours the setting.
    http: { requestTimeout, connectionsCheckingInterval: 1_000 },
    clientErrorHandler: writeClientError,
    // Requests arriving while the server drains get the error envelope (see registerDraining).
    return503OnClosing: false,
    trustProxy: options.trustProxy ?? false,
    routerOptions: { querystringParser: parseQueryString, ignoreTrailingSlash: true, maxParamLength: 5_000 },
    // Errors raised before routing (a malformed percent-escape, say) get the same envelope.
    frameworkErrors: (error, _request, reply) => sendRestError(reply, restErrorFromFastify(error)),
  });
  const routers = options.routers ?? { rest: restRouter, app: appRouter };
  for (const served of [routers.rest, routers.app]) setOutputValidation(served, options.outputValidation ?? "exact");

  server.setErrorHandler(handleRestError);
  registerDraining(server);
  registerRequestLog(server);
  await registerProtection(server, {
    corsOrigins: options.corsOrigins ?? [],
    writesPerMinute: options.writesPerMinute ?? 0,
  });
  registerHealthRoutes(server, options.handle);
  registerExplorerRoutes(server);
  await server.register(async (scope) => {
    await restPlugin(scope, { router: routers.rest, handle: options.handle, site: options.site });
    registerDiscoveryRoutes(scope, routers.rest);
  });
  await server.register(trpcPlugin, { router: routers.app, handle: options.handle, site: options.site });

  server.setNotFoundHandler((request, reply) =>
    sendRestError(reply, isRestPath(request.url.split("?")[0] ?? "") ? NO_ROUTE : NOT_FOUND),
  );
  return server;
}

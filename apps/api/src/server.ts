import { appRouter, type DbHandle, invalidParams, restRouter, type Site } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { isRestPath, REST_BASES, requestOrigin } from "./rest/base-paths.ts";
import { createApiDocument } from "./rest/document.ts";
import { NO_ROUTE, restError } from "./rest/envelope.ts";
import { restErrorFromFastify, sendRestError } from "./rest/errors.ts";
import { createNamespaceIndex, docQuery, indexQuery } from "./rest/namespace-index.ts";
import { restPlugin } from "./rest/plugin.ts";
import { parseQueryString } from "./rest/request.ts";
import { trpcPlugin } from "./trpc/plugin.ts";

export interface ServerOptions {
  handle: DbHandle;
  site: Site;
  bodyLimit: number;
  logger?: FastifyServerOptions["logger"];
  /** The routers to serve; the calendar's own by default (tests of the adapters pass their own). */
  routers?: { rest: AnyTRPCRouter; app: AnyTRPCRouter };
}

function languageQuery(language: string | undefined): string {
  return language ? `?ml_language=${language}` : "";
}

/** The namespace index and the OpenAPI document of every base path: plain routes, built once from the router. */
function registerDiscoveryRoutes(server: FastifyInstance, router: AnyTRPCRouter): void {
  const index = createNamespaceIndex(router);
  const document = createApiDocument(router);
  for (const base of REST_BASES) {
    server.get(base.path, async (request) => {
      const query = indexQuery.safeParse(request.query);
      if (!query.success) {
        const params = Object.fromEntries(query.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
        throw invalidParams(params);
      }
      const origin = requestOrigin(request);
      const apiRoot = `${origin}${base.path}`;
      const rendered = index.render(apiRoot, origin, query.data.namespace);
      const suffix = languageQuery(query.data.ml_language);
      for (const route of Object.values(rendered.routes)) {
        for (const link of route._links?.self ?? []) link.href += suffix;
      }
      return rendered;
    });
    server.get(`${base.path}/doc`, async (request) => {
      const query = docQuery.safeParse(request.query);
      if (!query.success) throw invalidParams({ ml_language: "Must be one of zh-hans, en, fr, de." });
      const origin = requestOrigin(request);
      return document.forRequest(`${origin}${base.path}`, origin);
    });
  }
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const server = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit,
    routerOptions: { querystringParser: parseQueryString, ignoreTrailingSlash: true, maxParamLength: 5_000 },
    // Errors raised before routing (a malformed percent-escape, say) get the same envelope.
    frameworkErrors: (error, _request, reply) => sendRestError(reply, restErrorFromFastify(error)),
  });
  const routers = options.routers ?? { rest: restRouter, app: appRouter };

  await server.register(async (scope) => {
    await restPlugin(scope, { router: routers.rest, handle: options.handle, site: options.site });
    registerDiscoveryRoutes(scope, routers.rest);
  });
  await server.register(trpcPlugin, { router: routers.app, handle: options.handle, site: options.site });

  server.setNotFoundHandler((request, reply) =>
    isRestPath(request.url.split("?")[0] ?? "")
      ? sendRestError(reply, NO_ROUTE)
      : sendRestError(reply, restError(404, "not_found", "Nothing here. The API lives under /cal/events/v1.")),
  );
  return server;
}

import { invalidParams } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import type { FastifyInstance } from "fastify";
import { API_PATH, REST_BASES, requestOrigin } from "./base-paths.ts";
import { createApiDocument } from "./document.ts";
import { prefersHtml, sendExplorerPage } from "./explorer.ts";
import { createNamespaceIndex, docQuery, indexQuery } from "./namespace-index.ts";

function paramsOf(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Record<string, string> {
  return Object.fromEntries(issues.map((issue) => [String(issue.path[0]), issue.message]));
}

/**
 * The namespace index and the OpenAPI document of every base path: plain routes, built once from the router. The
 * document is built when first asked for: most servers never are, and it is a large, long-lived object.
 */
export function registerDiscoveryRoutes(app: FastifyInstance, router: AnyTRPCRouter): void {
  const index = createNamespaceIndex(router);
  let document: ReturnType<typeof createApiDocument> | undefined;
  for (const base of REST_BASES) {
    app.get(base.path, { config: { versionTagged: {} } }, async (request) => {
      const query = indexQuery.safeParse(request.query);
      if (!query.success) throw invalidParams(paramsOf(query.error.issues));
      const origin = requestOrigin(request);
      const rendered = index.render(`${origin}${base.path}`, origin, query.data.namespace);
      const suffix = query.data.ml_language ? `?ml_language=${query.data.ml_language}` : "";
      for (const route of Object.values(rendered.routes)) {
        for (const link of route._links?.self ?? []) link.href += suffix;
      }
      return rendered;
    });
    app.get(`${base.path}/doc`, { config: { versionTagged: { vary: "Accept" } } }, async (request, reply) => {
      const query = docQuery.safeParse(request.query);
      if (!query.success) throw invalidParams(paramsOf(query.error.issues));
      reply.header("vary", "Accept");
      // The explorer page fetches this same URL as JSON.
      if (prefersHtml(request)) return sendExplorerPage(reply, request.url);
      const origin = requestOrigin(request);
      // A server URL cannot carry a query, so an explicit ml_language (which wins over the prefix) becomes its prefix.
      const language = query.data.ml_language;
      document ??= createApiDocument(router);
      return document.forRequest(language ? `${origin}/${language}${API_PATH}` : `${origin}${base.path}`, origin);
    });
  }
}

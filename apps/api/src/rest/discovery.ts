import { parseOrThrow } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import type { FastifyInstance } from "fastify";
import { type ApiRoot, requestOrigin, SERVED_BASES } from "./base-paths.ts";
import { createApiDocument } from "./document.ts";
import { prefersHtml, sendExplorerPage } from "./explorer.ts";
import { createNamespaceIndex, docQuery, indexQueryOf } from "./namespace-index.ts";

type IndexQuery = ReturnType<typeof indexQueryOf>;

/**
 * The namespace index and the OpenAPI document of every base path: plain routes, built once from the router, in
 * the root the request came by. The document is built when first asked for: most servers never are, and it is a
 * large, long-lived object.
 */
export function registerDiscoveryRoutes(app: FastifyInstance, router: AnyTRPCRouter): void {
  const indexes = new Map<ApiRoot, { index: ReturnType<typeof createNamespaceIndex>; query: IndexQuery }>();
  const indexOf = (root: ApiRoot) => {
    const built = indexes.get(root) ?? { index: createNamespaceIndex(router, root), query: indexQueryOf(root) };
    indexes.set(root, built);
    return built;
  };
  let document: ReturnType<typeof createApiDocument> | undefined;
  for (const base of SERVED_BASES) {
    const served = indexOf(base.root);
    app.get(base.path, { config: { versionTagged: {} } }, async (request) => {
      const query = parseOrThrow(served.query, request.query);
      const origin = requestOrigin(request);
      const restRoot = `${origin}${base.root.restRoot}/`;
      const rendered = served.index.render(`${origin}${base.path}`, restRoot, query.namespace);
      const suffix = query.ml_language ? `?ml_language=${query.ml_language}` : "";
      for (const route of Object.values(rendered.routes)) {
        for (const link of route._links?.self ?? []) link.href += suffix;
      }
      return rendered;
    });
    app.get(`${base.path}/doc`, { config: { versionTagged: { vary: "Accept" } } }, async (request, reply) => {
      const query = parseOrThrow(docQuery, request.query);
      reply.header("vary", "Accept");
      // The explorer page fetches this same URL as JSON.
      if (prefersHtml(request)) return sendExplorerPage(reply, request.url);
      const origin = requestOrigin(request);
      // A server URL cannot carry a query, so an explicit ml_language (which wins over the prefix) becomes its prefix.
      const language = query.ml_language;
      document ??= createApiDocument(router);
      const apiRoot = language ? `${origin}/${language}${base.root.path}` : `${origin}${base.path}`;
      return document.forRequest(apiRoot, origin, base.root);
    });
  }
}

import type { Site } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { requestOrigin, SERVED_BASES, WORDPRESS_REST_ROOT, WORDPRESS_ROOT } from "./base-paths.ts";
import { createNamespaceIndex } from "./namespace-index.ts";

/** WordPress's REST discovery: the header every answer carries, naming the REST root (`rest_output_link_header`). */
export const DISCOVERY_REL = "https://api.w.org/";

export function discoveryLink(request: FastifyRequest): string {
  return `<${requestOrigin(request)}${WORDPRESS_REST_ROOT}/>; rel="${DISCOVERY_REL}"`;
}

/**
 * Adds the discovery link to every answer but a 304 (which leaves out `Link`, as `NOT_IN_304` says), after a list's
 * own `Link` relations; once only, since an answer the response cache replays through Fastify already has it.
 */
export function registerDiscoveryHeader(server: FastifyInstance): void {
  server.addHook("onSend", async (request, reply) => {
    if (reply.statusCode === 304) return;
    const existing = reply.getHeader("link");
    const links = typeof existing === "string" && existing !== "" ? existing : undefined;
    if (links?.includes(`rel="${DISCOVERY_REL}"`)) return;
    const link = discoveryLink(request);
    reply.header("link", links ? `${links}, ${link}` : link);
  });
}

export interface WordPressRootOptions {
  router: AnyTRPCRouter;
  site: Site;
  siteName: string;
}

/**
 * `GET /wp-json/` (and under each language prefix): WordPress's root index (`WP_REST_Server::get_index`), with the
 * site, the one namespace served under it (`tribe/events/v1`) and its routes, so that clients that discover the API
 * the WordPress way find it.
 */
export function registerWordPressRoot(app: FastifyInstance, options: WordPressRootOptions): void {
  const index = createNamespaceIndex(options.router, WORDPRESS_ROOT);
  for (const base of SERVED_BASES.filter(({ root }) => root === WORDPRESS_ROOT)) {
    app.get(`${base.prefix}${WORDPRESS_REST_ROOT}`, async (request) => {
      const origin = requestOrigin(request);
      const restRoot = `${origin}${base.prefix}${WORDPRESS_REST_ROOT}/`;
      const home = options.site.siteUrl ?? `${origin}${base.prefix}`;
      const namespace = index.render(`${origin}${base.path}`, restRoot, WORDPRESS_ROOT.namespace);
      return {
        name: options.siteName,
        description: "Events, venues, organizers, categories and tags, as The Events Calendar's REST API serves them.",
        url: home,
        home,
        timezone_string: options.site.timezone,
        namespaces: [WORDPRESS_ROOT.namespace],
        authentication: {},
        routes: {
          "/": {
            namespace: "",
            methods: ["GET"],
            endpoints: [{ methods: ["GET"], args: { context: { default: "view", required: false } } }],
            _links: { self: [{ href: restRoot }] },
          },
          ...namespace.routes,
        },
        _links: { help: [{ href: "https://developer.wordpress.org/rest-api/" }] },
      };
    });
  }
}

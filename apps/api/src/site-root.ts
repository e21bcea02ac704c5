import type { FastifyInstance } from "fastify";
import { escapeHtml } from "./public-page.html.ts";
import { API_PATH, requestOrigin, WORDPRESS_REST_ROOT } from "./rest/base-paths.ts";
import { prefersHtml } from "./rest/explorer.ts";

const PAGE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Where the API is, from an origin: what `GET /` points to. */
export function sitePointers(origin: string) {
  return {
    api: `${origin}${API_PATH}`,
    document: `${origin}${API_PATH}/doc`,
    explorer: `${origin}/docs`,
    wordpress: `${origin}${WORDPRESS_REST_ROOT}/`,
  };
}

function pointerPage(name: string, pointers: ReturnType<typeof sitePointers>): string {
  const item = (href: string, text: string) => `<li><a href="${escapeHtml(href)}">${text}</a></li>`;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(name)}</title></head><body><main><h1>${escapeHtml(name)}</h1><p>This server is the calendar's REST API.</p><ul>${[
    item(pointers.explorer, "Explore the API"),
    item(pointers.api, "The API root and its index"),
    item(pointers.document, "The OpenAPI document"),
    item(pointers.wordpress, "WordPress's REST root (for The Events Calendar's clients)"),
  ].join("")}</ul></main></body></html>\n`;
}

/**
 * `GET /`: a pointer to the API, its document, the explorer and WordPress's REST root, as JSON for API clients and
 * a short page for browsers, instead of a bare 404.
 */
export function registerSiteRoot(server: FastifyInstance, siteName: string): void {
  server.get("/", async (request, reply) => {
    reply.header("vary", "Accept");
    const pointers = sitePointers(requestOrigin(request));
    if (!prefersHtml(request)) return { name: siteName, ...pointers };
    return reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", PAGE_POLICY)
      .header("referrer-policy", "no-referrer")
      .send(pointerPage(siteName, pointers));
  });
}

import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import Negotiator from "negotiator";
import { setPagePolicy } from "../http/security-headers.ts";
import { API_PATH } from "./base-paths.ts";

/** The interactive explorer: Swagger UI, served from the installed `swagger-ui-dist` (nothing from a CDN). */

const ASSETS_PATH = "/docs/assets";
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** The files the page loads, with their media types; nothing else of the package is served. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

/** JSON stays the answer for API clients (any type, or no Accept); browsers, which rank text/html first, get the page. */
export function prefersHtml(request: FastifyRequest): boolean {
  return new Negotiator(request).mediaType(["application/json", "text/html"]) === "text/html";
}

/** A JSON string that is also safe inside a `<script>` element. */
function scriptString(text: string): string {
  return JSON.stringify(text).replaceAll("<", "\\u003c");
}

/** The page's one inline script: Swagger UI on the document at `documentUrl` (which it fetches as JSON). */
function explorerScript(documentUrl: string): string {
  return `
    window.ui = SwaggerUIBundle({
      url: ${scriptString(documentUrl)},
      dom_id: "#swagger-ui",
      deepLinking: true,
      displayRequestDuration: true,
      filter: true,
      validatorUrl: null
    });
  `;
}

/** The explorer page for the OpenAPI document at `documentUrl`. */
export function explorerPage(documentUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Calendar REST API</title>
  <link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" sizes="32x32" href="${ASSETS_PATH}/favicon-32x32.png">
  <link rel="icon" type="image/png" sizes="16x16" href="${ASSETS_PATH}/favicon-16x16.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
  <script>${explorerScript(documentUrl)}</script>
</body>
</html>
`;
}

/** Answers the explorer page, under a Content-Security-Policy that allows its inline script by hash. */
export function sendExplorerPage(reply: FastifyReply, documentUrl: string): FastifyReply {
  return setPagePolicy(reply, explorerScript(documentUrl))
    .type("text/html; charset=utf-8")
    .send(explorerPage(documentUrl));
}

/** `/docs` (the explorer of the API's own document) and the explorer's static files. */
export function registerExplorerRoutes(server: FastifyInstance): void {
  server.get("/docs", async (_request, reply) => sendExplorerPage(reply, `${API_PATH}/doc`));
  for (const [file, type] of Object.entries(ASSETS)) {
    server.get(`${ASSETS_PATH}/${file}`, async (_request, reply) =>
      reply
        .type(type)
        .header("cache-control", "public, max-age=86400")
        .send(createReadStream(join(SWAGGER_UI_DIR, file))),
    );
  }
}

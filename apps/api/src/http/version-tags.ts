import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { REST_BASES, requestOrigin } from "../rest/base-paths.ts";
import { versionAtStartOf } from "./change-version.reader.ts";
import { tagListMatches } from "./conditional-get.ts";
import type { ChangeVersionReader } from "./response-cache.ts";

/** Below a base path: the index, the document and the collections (items keep the tag of their body). */
const VERSION_TAGGED = /^(?:\/(?:doc|events|venues|organizers|categories|tags))?\/?$/;

function isVersionTagged(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const path = request.url.split("?", 1)[0] ?? "";
  return REST_BASES.some(
    (base) =>
      (path === base.path || path.startsWith(`${base.path}/`)) && VERSION_TAGGED.test(path.slice(base.path.length)),
  );
}

/**
 * The ETag of an answer that may change with any write, known before it is rendered: the change version, the
 * minute (lists with relative dates move with the clock; see the response cache), and what chooses the
 * representation: the origin links are built from, the path and query as sent, `Accept` (the document is JSON or
 * the explorer page) and the caller's credentials (what it may see).
 */
function versionTagOf(request: FastifyRequest, version: number): string {
  const { accept = "", authorization = "" } = request.headers;
  const representation = createHash("sha1")
    .update(`${requestOrigin(request)}\n${request.url}\n${accept}\n${authorization}`)
    .digest("base64url");
  return `W/"v${version}.${Math.floor(Date.now() / 60_000)}.${representation}"`;
}

const tags = new WeakMap<FastifyRequest, string>();

/** The version tag of a request's answer, when it has one (see `registerVersionTags`). */
export function versionTagFor(request: FastifyRequest): string | undefined {
  return tags.get(request);
}

/**
 * Lists, the index and the document take their ETag from the change version read as the request starts (one
 * primary-key read) instead of a hash of their body; an anonymous `If-None-Match` naming it is answered 304 at
 * once, without running the procedure. Items keep the hash of their body: their tag must not change with writes
 * to other records, or `If-Match` on them would fail for nothing. Callers with credentials get their 304 after
 * rendering, so that a credential revoked since is still refused.
 */
export function registerVersionTags(server: FastifyInstance, readVersion: ChangeVersionReader): void {
  server.addHook("onRequest", async (request, reply) => {
    if (!isVersionTagged(request)) return;
    const version = await versionAtStartOf(request, readVersion).catch(() => undefined);
    // The database is down: the route answers as it does (503), and a 200 gets the tag of its body.
    if (version === undefined) return;
    const tag = versionTagOf(request, version);
    tags.set(request, tag);
    const ifNoneMatch = request.headers["if-none-match"];
    if (ifNoneMatch === undefined || request.headers.authorization !== undefined) return;
    if (!tagListMatches(ifNoneMatch, tag)) return;
    // The document varies by Accept (JSON or the explorer page) as its 200 says.
    if (request.url.split("?", 1)[0]?.replace(/\/$/, "").endsWith("/doc")) reply.header("vary", "Accept");
    return reply.code(304).header("etag", tag).send();
  });
}

import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { REST_BASES, requestOrigin } from "../rest/base-paths.ts";
import { versionAtStartOf } from "./change-version.reader.ts";
import { tagListMatches } from "./conditional-get.ts";
import type { ChangeVersionReader } from "./response-cache.ts";

/** Below a base path: the index, the document and the collections (items keep the tag of their body). */
const VERSION_TAGGED = /^(?:\/(doc|events|venues|organizers|categories|tags))?\/?$/;
const ABSOLUTE_DATE = /^\d{4}-\d{2}-\d{2}/;

/**
 * Does the answer depend on the clock as well as on the data? Events lists without an absolute window (the
 * default starts yesterday; `now`, `+1 week`) and venues or organizers `only_with_upcoming` do.
 */
function dependsOnClock(collection: string | undefined, query: URLSearchParams): boolean {
  if (collection === "events") {
    return !["start_date", "end_date"].every((name) => ABSOLUTE_DATE.test(query.get(name) ?? ""));
  }
  return (collection === "venues" || collection === "organizers") && query.has("only_with_upcoming");
}

/** An answer that changes with the data only, so that the change version tells whether it changed. */
function isVersionTagged(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const [path = "", search = ""] = request.url.split("?", 2);
  const base = REST_BASES.find((candidate) => path === candidate.path || path.startsWith(`${candidate.path}/`));
  const route = base ? VERSION_TAGGED.exec(path.slice(base.path.length)) : null;
  return route !== null && !dependsOnClock(route[1], new URLSearchParams(search));
}

/**
 * The ETag of an answer known before it is rendered: the change version and what chooses the representation: the
 * origin links are built from, the path and query as sent, `Accept` (the document is JSON or the explorer page)
 * and the caller's credentials (what it may see).
 */
function versionTagOf(request: FastifyRequest, version: number): string {
  const { accept = "", authorization = "" } = request.headers;
  const representation = createHash("sha1")
    .update(`${requestOrigin(request)}\n${request.url}\n${accept}\n${authorization}`)
    .digest("base64url");
  return `W/"v${version}.${representation}"`;
}

const tags = new WeakMap<FastifyRequest, string>();

/** The version tag of a request's answer, when it has one (see `registerVersionTags`). */
export function versionTagFor(request: FastifyRequest): string | undefined {
  return tags.get(request);
}

/**
 * Lists, the index and the document take their ETag from the change version read as the request starts (one
 * primary-key read) instead of a hash of their body; an anonymous `If-None-Match` naming it is answered 304 at
 * once, without running the procedure. Kept on the hash of their body: items (their tag must not change with
 * writes to other records, or `If-Match` on them would fail for nothing) and answers that move with the clock (a
 * version tag would have to change every minute, and miss revalidations the body's hash still answers). Callers
 * with credentials get their 304 after rendering, so that a credential revoked since is still refused.
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

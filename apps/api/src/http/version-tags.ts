import { createHash } from "node:crypto";
import type { AnyTRPCRouter } from "@trpc/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { requestOrigin } from "../rest/base-paths.ts";
import { prefersCalendar } from "../rest/ical.routes.ts";
import { restOperationMatcher } from "../rest/operations.ts";
import { versionAtStartOf } from "./change-version.reader.ts";
import { tagListMatches } from "./conditional-get.ts";
import type { ChangeVersionReader } from "./response-cache.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * A plain route (not a procedure) whose answer changes with the data alone, so that it takes a version tag;
     * `vary` is the header its 200 varies by besides the credentials, which a 304 sent before it repeats.
     */
    versionTagged?: { vary?: string };
  }
}

/**
 * Is the answer to this request one that changes with the data alone, so that the change version tells whether it
 * changed? Plain routes say so in their config; a procedure's read says so in its operation (`cache: "version"`),
 * unless its `movesWithClock` finds, from the query as the procedure's own input schema parses it, that this answer
 * moves with the clock too. A query that does not parse is answered 400 with the hash of its body. A list asked
 * for as iCalendar is answered by the feed, not the procedure, and every feed is stamped with the time (DTSTAMP).
 */
function versionTaggedResolver(router: AnyTRPCRouter) {
  const operationFor = restOperationMatcher(router);
  return (request: FastifyRequest): boolean => {
    if (request.method !== "GET" && request.method !== "HEAD") return false;
    if (request.routeOptions.config.versionTagged) return true;
    const operation = operationFor("GET", request.url);
    if (operation?.http?.cache !== "version" || !operation.input || prefersCalendar(request)) return false;
    const input = operation.input.safeParse(request.query);
    // The input as the procedure's own schema parsed it: the input type its `movesWithClock` declares.
    return input.success && !operation.http.movesWithClock(input.data as never);
  };
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
 * version tag would outlive them: the same version, another answer). Callers with credentials get their 304 after
 * rendering, so that a credential revoked since is still refused.
 */
export function registerVersionTags(
  server: FastifyInstance,
  router: AnyTRPCRouter,
  readVersion: ChangeVersionReader,
): void {
  const isVersionTagged = versionTaggedResolver(router);
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
    const vary = request.routeOptions.config.versionTagged?.vary;
    if (vary) reply.header("vary", vary);
    return reply.code(304).header("etag", tag).send();
  });
}

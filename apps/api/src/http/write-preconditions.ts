import type { UnchangedSince } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isRestPath } from "../rest/base-paths.ts";
import { restError } from "../rest/envelope.ts";
import { sendRestError } from "../rest/errors.ts";
import { restOperationMatcher } from "../rest/operations.ts";
import { httpDateSeconds, tagListMatches } from "./conditional-get.ts";
import type { ChangeVersionReader } from "./response-cache.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Query parameters that change which representation a GET of the same URL answers. */
export const REPRESENTATION_PARAMS = ["ml_language", "password"];

const PRECONDITION_FAILED = restError("rest_precondition_failed");

/**
 * The type of the record a GET of a REST URL shows, as its operation declares it (`record`), for the preconditions
 * of writes to that URL; null where it shows none (a collection, a webhook subscription).
 */
export function recordTypeResolver(router: AnyTRPCRouter) {
  const operationFor = restOperationMatcher(router);
  return (url: string): UnchangedSince["type"] | null => {
    const http = operationFor("GET", url)?.http;
    return http?.cache === "body" ? http.record : null;
  };
}

/** The URL a GET of the written resource would use: its path and the parameters that choose its representation. */
function readUrl(request: FastifyRequest): string {
  const [path = "", query = ""] = request.originalUrl.split("?", 2);
  const kept = [...new URLSearchParams(query)].filter(([key]) => REPRESENTATION_PARAMS.includes(key));
  const search = new URLSearchParams(kept).toString();
  return search ? `${path}?${search}` : path;
}

/** Does the request carry a write precondition (`If-Match` or a valid `If-Unmodified-Since`)? */
export function hasWritePrecondition(request: FastifyRequest): boolean {
  return (
    request.headers["if-match"] !== undefined || httpDateSeconds(request.headers["if-unmodified-since"]) !== undefined
  );
}

/** The record of `type` a GET answered with `body` is: its id from the body. */
function recordOf(type: UnchangedSince["type"] | null, body: string, version: number): UnchangedSince | undefined {
  const id: unknown = type ? (JSON.parse(body) as { id?: unknown }).id : undefined;
  return type && typeof id === "number" ? { type, id, version } : undefined;
}

/**
 * Checks the request's `If-Match` / `If-Unmodified-Since` against what a GET of `url`, as the same caller, answers
 * now (a resource the caller cannot read, any status but 200, fails it). When it holds, the record (of `type`) is
 * named with the change version read before that GET: the write's own transaction then refuses if another write
 * changed the record since (`withUnchangedRecords` in the core), so nothing can slip in between this check and the
 * write.
 */
export async function checkWritePrecondition(
  server: FastifyInstance,
  request: FastifyRequest,
  target: { url: string; type: UnchangedSince["type"] | null },
  readVersion: ChangeVersionReader,
): Promise<{ holds: false } | { holds: true; unchanged: UnchangedSince[] }> {
  // Unreadable (the database is down): the write would fail anyway; refuse it as before.
  const version = await readVersion().catch(() => undefined);
  if (version === undefined) return { holds: false };
  const ifMatch = request.headers["if-match"];
  const unmodifiedSince = httpDateSeconds(request.headers["if-unmodified-since"]);
  const current = await server.inject({
    method: "GET",
    url: target.url,
    headers: {
      host: request.headers.host ?? "localhost",
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    },
  });
  if (current.statusCode !== 200) return { holds: false };
  let holds: boolean;
  if (ifMatch !== undefined) {
    const etag = current.headers.etag;
    holds = typeof etag === "string" && tagListMatches(ifMatch, etag);
  } else {
    const modified = httpDateSeconds(current.headers["last-modified"]?.toString());
    holds = modified === undefined || unmodifiedSince === undefined || modified <= unmodifiedSince;
  }
  if (!holds) return { holds };
  const record = recordOf(target.type, current.body, version);
  return { holds, unchanged: record ? [record] : [] };
}

const UNCHANGED = Symbol("records a REST write's preconditions held for");
type CheckedRequest = FastifyRequest & { [UNCHANGED]?: UnchangedSince[] };

/** The records a REST write's preconditions held for, for its procedure's context. */
export function unchangedRecordsOf(request: FastifyRequest): UnchangedSince[] | undefined {
  return (request as CheckedRequest)[UNCHANGED];
}

/**
 * Optimistic concurrency: a write carrying `If-Match` (an ETag the caller read) or `If-Unmodified-Since` is done
 * only if a GET of the same resource, as the same caller, still answers that tag (or was not modified since), and
 * no other write changes the record before its transaction commits; else 412 `rest_precondition_failed` and
 * nothing is written. Writes without these headers are untouched.
 */
export function registerWritePreconditions(
  server: FastifyInstance,
  router: AnyTRPCRouter,
  readVersion: ChangeVersionReader,
): void {
  const recordTypeOf = recordTypeResolver(router);
  server.addHook("preHandler", async (request: CheckedRequest, reply) => {
    if (!WRITES.has(request.method) || !hasWritePrecondition(request)) return;
    if (!isRestPath(request.routeOptions.url ?? "")) return;
    const url = readUrl(request);
    const checked = await checkWritePrecondition(server, request, { url, type: recordTypeOf(url) }, readVersion);
    if (!checked.holds) return sendRestError(reply, PRECONDITION_FAILED);
    request[UNCHANGED] = checked.unchanged;
  });
}

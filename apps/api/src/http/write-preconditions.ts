import type { Db, UnchangedSince } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { authenticationFailure } from "../auth.ts";
import { isRestPath } from "../rest/base-paths.ts";
import { restError, restErrorBody } from "../rest/envelope.ts";
import { sendRestError } from "../rest/errors.ts";
import { restOperationMatcher } from "../rest/operations.ts";
import { httpDateSeconds, tagListMatches } from "./conditional-get.ts";
import type { ChangeVersionReader } from "./response-cache.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const PRECONDITION_FAILED = restError("rest_precondition_failed");

/** A GET of a written path, as its operation declares it. */
export interface ItemRead {
  /** The record it shows (`record`), which the write's transaction checks again; null where it shows none. */
  type: UnchangedSince["type"] | null;
  /** Its query parameters, which choose the representation (`password`, `ml_language`). */
  params: string[];
}

/** The GET a write's preconditions are checked against, for a REST URL path (see `ItemRead`). */
export function itemReadResolver(router: AnyTRPCRouter) {
  const operationFor = restOperationMatcher(router);
  return (path: string): ItemRead => {
    const read = operationFor("GET", path);
    if (!read) return { type: null, params: [] };
    const pathParams = new Set([...read.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name));
    const inputs = read.input instanceof z.ZodObject ? Object.keys(read.input.shape) : [];
    const type = read.http?.cache === "body" ? read.http.record : null;
    return { type, params: inputs.filter((name) => !pathParams.has(name)) };
  };
}

/** The URL a GET of the written resource would use: its path and the parameters of the write that it reads. */
function readUrl(request: FastifyRequest, params: readonly string[]): string {
  const [path = "", query = ""] = request.originalUrl.split("?", 2);
  const kept = [...new URLSearchParams(query)].filter(([key]) => params.includes(key));
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
    // Whatever the GET answers is charged to the client, not to this process.
    remoteAddress: request.ip,
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
 * nothing is written. Writes without these headers are untouched. Credentials come first: wrong ones are a 401
 * (which the failed-authentication limit counts for the client's address), never a 412.
 */
export function registerWritePreconditions(
  server: FastifyInstance,
  router: AnyTRPCRouter,
  checks: { db: Db; readVersion: ChangeVersionReader },
): void {
  const { db, readVersion } = checks;
  const itemReadOf = itemReadResolver(router);
  server.addHook("preHandler", async (request: CheckedRequest, reply) => {
    if (!WRITES.has(request.method) || !hasWritePrecondition(request)) return;
    if (!isRestPath(request.routeOptions.url ?? "")) return;
    const refused = await authenticationFailure(db, request.headers.authorization);
    if (refused) return sendRestError(reply, restErrorBody(refused));
    const read = itemReadOf(request.originalUrl.split("?", 1)[0] ?? "");
    const target = { url: readUrl(request, read.params), type: read.type };
    const checked = await checkWritePrecondition(server, request, target, readVersion);
    if (!checked.holds) return sendRestError(reply, PRECONDITION_FAILED);
    request[UNCHANGED] = checked.unchanged;
  });
}

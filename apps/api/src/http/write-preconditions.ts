import type { FastifyInstance, FastifyRequest } from "fastify";
import { isRestPath } from "../rest/base-paths.ts";
import { restError } from "../rest/envelope.ts";
import { sendRestError } from "../rest/errors.ts";
import { httpDateSeconds, tagListMatches } from "./conditional-get.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Query parameters that change which representation a GET of the same URL answers. */
export const REPRESENTATION_PARAMS = ["ml_language", "password"];

export const PRECONDITION_FAILED_CODE = "rest_precondition_failed";
export const PRECONDITION_FAILED_MESSAGE =
  "The resource has changed since you read it (If-Match or If-Unmodified-Since); read it again and retry.";
const PRECONDITION_FAILED = restError(412, PRECONDITION_FAILED_CODE, PRECONDITION_FAILED_MESSAGE);

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

/**
 * Is the request's `If-Match` / `If-Unmodified-Since` still true of what a GET of `url`, as the same caller,
 * answers now? A resource the caller cannot read (any status but 200) fails it.
 */
export async function writePreconditionHolds(
  server: FastifyInstance,
  request: FastifyRequest,
  url: string,
): Promise<boolean> {
  const ifMatch = request.headers["if-match"];
  const unmodifiedSince = httpDateSeconds(request.headers["if-unmodified-since"]);
  const current = await server.inject({
    method: "GET",
    url,
    headers: {
      host: request.headers.host ?? "localhost",
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    },
  });
  if (current.statusCode !== 200) return false;
  if (ifMatch !== undefined) {
    const etag = current.headers.etag;
    return typeof etag === "string" && tagListMatches(ifMatch, etag);
  }
  const modified = httpDateSeconds(current.headers["last-modified"]?.toString());
  return modified === undefined || unmodifiedSince === undefined || modified <= unmodifiedSince;
}

/**
 * Optimistic concurrency: a write carrying `If-Match` (an ETag the caller read) or `If-Unmodified-Since` is done
 * only if a GET of the same resource, as the same caller, still answers that tag (or was not modified since);
 * else 412 `rest_precondition_failed` and nothing is written. Writes without these headers are untouched.
 */
export function registerWritePreconditions(server: FastifyInstance): void {
  server.addHook("preHandler", async (request, reply) => {
    if (!WRITES.has(request.method) || !hasWritePrecondition(request)) return;
    if (!isRestPath(request.routeOptions.url ?? "")) return;
    if (!(await writePreconditionHolds(server, request, readUrl(request))))
      return sendRestError(reply, PRECONDITION_FAILED);
  });
}

import type { FastifyInstance, FastifyRequest } from "fastify";
import { isRestPath } from "../rest/base-paths.ts";
import { restError } from "../rest/envelope.ts";
import { sendRestError } from "../rest/errors.ts";
import { httpDateSeconds, tagListMatches } from "./conditional-get.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Query parameters that change which representation a GET of the same URL answers. */
const REPRESENTATION_PARAMS = ["ml_language", "password"];

const PRECONDITION_FAILED = restError(
  412,
  "rest_precondition_failed",
  "The resource has changed since you read it (If-Match or If-Unmodified-Since); read it again and retry.",
);

/** The URL a GET of the written resource would use: its path and the parameters that choose its representation. */
function readUrl(request: FastifyRequest): string {
  const [path = "", query = ""] = request.originalUrl.split("?", 2);
  const kept = [...new URLSearchParams(query)].filter(([key]) => REPRESENTATION_PARAMS.includes(key));
  const search = new URLSearchParams(kept).toString();
  return search ? `${path}?${search}` : path;
}

/**
 * Optimistic concurrency: a write carrying `If-Match` (an ETag the caller read) or `If-Unmodified-Since` is done
 * only if a GET of the same resource, as the same caller, still answers that tag (or was not modified since);
 * else 412 `rest_precondition_failed` and nothing is written. Writes without these headers are untouched.
 */
export function registerWritePreconditions(server: FastifyInstance): void {
  server.addHook("preHandler", async (request, reply) => {
    if (!WRITES.has(request.method)) return;
    const ifMatch = request.headers["if-match"];
    const unmodifiedSince = httpDateSeconds(request.headers["if-unmodified-since"]);
    if (ifMatch === undefined && unmodifiedSince === undefined) return;
    if (!isRestPath(request.routeOptions.url ?? "")) return;
    const current = await server.inject({
      method: "GET",
      url: readUrl(request),
      headers: {
        host: request.headers.host ?? "localhost",
        ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
      },
    });
    if (current.statusCode !== 200) return sendRestError(reply, PRECONDITION_FAILED);
    if (ifMatch !== undefined) {
      const etag = current.headers.etag;
      if (typeof etag !== "string" || !tagListMatches(ifMatch, etag)) return sendRestError(reply, PRECONDITION_FAILED);
      return;
    }
    const modified = httpDateSeconds(current.headers["last-modified"]?.toString());
    if (modified !== undefined && unmodifiedSince !== undefined && modified > unmodifiedSince) {
      return sendRestError(reply, PRECONDITION_FAILED);
    }
  });
}

import { rejectNulCharacters } from "@calendar/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import qs from "qs";
import { isNestedTooDeeply, MAX_JSON_DEPTH } from "../json-depth.ts";

/**
 * WordPress clients send arrays as `a[]=1&a[]=2`, `a=1&a=2` or `a=1,2`, and inline objects as `venue[city]=X`.
 * qs reads the first two forms and the nesting; the comma form is split by the core's list schemas.
 */
const QS_OPTIONS = { depth: 4, arrayLimit: 200, parameterLimit: 1_000, allowDots: false } as const;

export function parseQueryString(text: string): Record<string, unknown> {
  return qs.parse(text, QS_OPTIONS);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH"]);

export class RestBodyError extends Error {
  readonly statusCode = 400;
  readonly code = "rest_invalid_json";
}

type ParsedBody = (error: Error | null, body?: unknown) => void;

/** Fastify's JSON parser, refusing bodies nested too deeply (400 `rest_invalid_json`; see `MAX_JSON_DEPTH`). */
export function depthLimitedJsonParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser("error", "error");
  return (request: FastifyRequest, body: string | Buffer, done: ParsedBody) =>
    parse(request, String(body), (error, parsed) => {
      if (error) return done(error);
      if (isNestedTooDeeply(parsed)) {
        return done(new RestBodyError(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`));
      }
      done(null, parsed);
    });
}

/** trpc-to-openapi drops falsy query values (`false`, `0`), so typed body values join the query as strings. */
function queryValues(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [
      key,
      typeof value === "object" || value === null ? value : String(value),
    ]),
  );
}

/**
 * trpc-to-openapi also drops empty query values, so `search=` would read as no search at all; a one-item list
 * survives (the library unwraps it), so the schemas see the "" and reject it as WordPress does.
 */
export function keepEmptyQueryValues(request: FastifyRequest): void {
  if (!isPlainObject(request.query)) return;
  request.query = Object.fromEntries(
    Object.entries(request.query).map(([key, value]) => [key, value === "" ? [value] : value]),
  );
}

/**
 * Write operations take their fields from the query string too (the body wins), and trpc-to-openapi reads only
 * JSON bodies (its #142): so the merged parameters become the body and the request is labelled JSON. A DELETE's
 * body, if any, joins its query, which is what the library reads for DELETE.
 */
function mergeParameters(request: FastifyRequest): void {
  const query = isPlainObject(request.query) ? request.query : {};
  const body = request.body ?? {};
  if (!isPlainObject(body)) throw new RestBodyError("The request body must be a JSON object.");
  if (WRITE_METHODS.has(request.method)) {
    request.body = { ...query, ...body };
    request.headers["content-type"] = "application/json";
  } else if (request.method === "DELETE") {
    request.query = { ...query, ...queryValues(body) };
  }
}

/** Body parsers and parameter merging for one REST Fastify instance. */
export function registerRestRequestHandling(app: FastifyInstance): void {
  // Only JSON and form bodies are accepted; anything else is a 415.
  app.removeContentTypeParser("text/plain");
  const parseJson = depthLimitedJsonParser(app);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    // An empty JSON body is "no parameters", as in WordPress, not a syntax error.
    if (typeof body === "string" && body.trim() === "") return done(null, {});
    parseJson(request, body, done);
  });
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, parseQueryString(String(body)));
  });
  app.addHook("preHandler", async (request) => mergeParameters(request));
}

/**
 * Every route's named path parameters (iCalendar, event pages, tRPC) go through the check of procedure input before
 * the route runs: U+0000, which PostgreSQL text cannot hold, is a 400 `rest_invalid_param` naming the parameter.
 * The REST scope's catch-all (`*`) is left to its procedures, whose input gets the same check under the names of
 * their own path parameters.
 */
export function registerPathParameterCheck(server: FastifyInstance): void {
  server.addHook("onRequest", async (request) => {
    const { "*": _restPath, ...named } = request.params as Record<string, unknown>;
    rejectNulCharacters(named);
  });
}

import { Readable } from "node:stream";
import type { Context } from "@calendar/core";
import {
  type AnyTRPCRouter,
  callTRPCProcedure,
  getTRPCErrorFromUnknown,
  getTRPCErrorShape,
  type TRPCError,
  transformTRPCResponse,
} from "@trpc/server";
import { getHTTPStatusCode } from "@trpc/server/http";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";

/** A GET of queries as tRPC's adapter reads it: the procedures its path names and the input of each. */
interface QueryBatch {
  isBatch: boolean;
  paths: string[];
  inputs: unknown[];
}

export interface GetQueryOptions {
  router: AnyTRPCRouter;
  /** The context of a query (the same the adapter's `createContext` gives one). */
  contextOf: (request: FastifyRequest) => Promise<Context>;
  /** The adapter's `responseMeta`: the status of an answer with these errors, if it sets one. */
  responseMeta: (opts: { errors: TRPCError[] }) => { status?: number };
  onError: (opts: {
    error: TRPCError;
    type: "query";
    path: string;
    input: unknown;
    ctx: Context | undefined;
    req: FastifyRequest;
  }) => void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isQuery(router: AnyTRPCRouter, path: string): boolean {
  // A procedure is a function carrying its definition.
  const procedure: unknown = router._def.procedures[path];
  const definition: unknown = typeof procedure === "function" && "_def" in procedure ? procedure._def : undefined;
  return isRecord(definition) && definition.type === "query";
}

function parsedJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Each call's input from the `input` parameter, as the adapter reads it; undefined when that would fail. */
function inputsOf(router: AnyTRPCRouter, text: string | null, batch: { isBatch: boolean; count: number }) {
  const { deserialize } = router._def._config.transformer.input;
  if (!text) return Array.from({ length: batch.count }, () => undefined);
  const parsed = parsedJson(text);
  if (parsed === undefined) return undefined;
  if (!batch.isBatch) return [deserialize(parsed.value)];
  const byIndex = parsed.value;
  if (!isRecord(byIndex)) return undefined;
  return Array.from({ length: batch.count }, (_, index) => {
    const input = byIndex[index];
    return input === undefined ? undefined : deserialize(input);
  });
}

/** The request's URL as the adapter builds it (from `Host`), or undefined where that throws. */
function urlOf(request: FastifyRequest): URL | undefined {
  try {
    return new URL(request.raw.url ?? "", `http://${request.headers.host ?? "localhost"}`);
  } catch {
    return undefined;
  }
}

function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * The queries of a GET (one, or a batch `?batch=1`), read as tRPC's adapter reads them. Undefined for what is left
 * to the adapter: other methods, a content type, streamed answers (`trpc-accept`, `application/jsonl`), connection
 * parameters, a path or input that does not parse, or a path that names no query.
 */
export function queryBatchOf(router: AnyTRPCRouter, request: FastifyRequest): QueryBatch | undefined {
  const { headers } = request;
  if (request.method !== "GET" || headers["content-type"] !== undefined || headers["trpc-accept"] !== undefined) {
    return undefined;
  }
  if (headers.accept?.includes("application/jsonl")) return undefined;
  const search = urlOf(request)?.searchParams;
  if (search === undefined || search.has("connectionParams")) return undefined;
  const path = decodedPath((request.params as { path: string }).path);
  if (path === undefined) return undefined;
  const isBatch = search.get("batch") === "1";
  const paths = isBatch ? path.split(",") : [path];
  if (!paths.every((name) => isQuery(router, name))) return undefined;
  const inputs = inputsOf(router, search.get("input"), { isBatch, count: paths.length });
  return inputs && { isBatch, paths, inputs };
}

type Outcome = { data: unknown } | { error: TRPCError };

/**
 * Runs the batch's queries with one context, as tRPC's `resolveResponse` does: a context that fails fails every
 * call; each failure is reported to `onError` and answered in the router's error shape; the status is
 * `responseMeta`'s, else tRPC's own.
 */
async function answerOf(batch: QueryBatch, request: FastifyRequest, options: GetQueryOptions) {
  const { router } = options;
  const config = router._def._config;
  let ctx: Context | undefined;
  let contextError: TRPCError | undefined;
  try {
    ctx = await options.contextOf(request);
  } catch (cause) {
    contextError = getTRPCErrorFromUnknown(cause);
  }
  // The adapter hands a failure the call's input once any call has read the batch's input.
  let inputRead = false;
  const inputOf = (index: number) => (inputRead ? batch.inputs[index] : undefined);
  const outcomes = await Promise.all(
    batch.paths.map(async (path, index): Promise<Outcome> => {
      try {
        if (contextError) throw contextError;
        const getRawInput = async () => {
          inputRead = true;
          return batch.inputs[index];
        };
        const data = await callTRPCProcedure({
          router,
          path,
          getRawInput,
          ctx,
          type: "query",
          signal: undefined,
          batchIndex: index,
        });
        return { data };
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        options.onError({ error, type: "query", path, input: inputOf(index), ctx, req: request });
        return { error };
      }
    }),
  );
  const items = outcomes.map((outcome, index) =>
    "error" in outcome
      ? {
          error: getTRPCErrorShape({
            config,
            error: outcome.error,
            type: "query",
            path: batch.paths[index],
            input: inputOf(index),
            ctx,
          }),
        }
      : { result: { data: outcome.data } },
  );
  const errors = outcomes.map((outcome) => ("error" in outcome ? outcome.error : undefined));
  const status =
    options.responseMeta({ errors: errors.filter((error) => error !== undefined) }).status ??
    getHTTPStatusCode(items, errors);
  const [single] = items;
  const response = batch.isBatch || single === undefined ? items : single;
  return { status, body: JSON.stringify(transformTRPCResponse(config, response)) };
}

/**
 * The answer with the adapter's status and headers, as a stream as the adapter's is: the hooks then treat it alike
 * (no ETag, compressed whatever its size, sent chunked).
 */
function send(reply: FastifyReply, answer: { status: number; body: string }): FastifyReply {
  return reply
    .code(answer.status)
    .header("vary", "trpc-accept, accept")
    .header("content-type", "application/json")
    .send(Readable.from([answer.body]));
}

/**
 * GET queries answered without tRPC's Fetch-API round trip (a WHATWG `Request` built from Node's request, a
 * `Response` streamed back): the same procedures, context and bytes, written as the adapter's answer is; everything
 * else goes on to the adapter's handler. Registered before the adapter's plugin, around its route.
 */
export function answerGetQueriesFirst(app: FastifyInstance, options: GetQueryOptions): void {
  app.addHook("onRoute", (route) => {
    const adapter = route.handler as RouteHandlerMethod;
    route.handler = async function (request, reply) {
      const batch = queryBatchOf(options.router, request);
      if (batch === undefined) return adapter.call(this, request, reply);
      return send(reply, await answerOf(batch, request, options));
    };
  });
}

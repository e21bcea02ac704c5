import type { FastifyInstance, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { isRestPath, requestOrigin } from "../rest/base-paths.ts";

/** Reads the calendar's change version (one primary-key read); a new version means some write committed. */
export type ChangeVersionReader = () => Promise<number>;

export interface ResponseCacheOptions {
  /** Bytes of bodies kept at most; 0 turns the cache off. */
  maxBytes: number;
  readVersion: ChangeVersionReader;
}

interface CachedAnswer {
  version: number;
  minute: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

interface Lookup {
  key: string;
  version: number;
  hit: boolean;
}

/** Headers an answer is replayed with (Fastify sets Content-Length; the hooks set the rest again). */
const NOT_REPLAYED = new Set(["content-length", "date", "connection", "keep-alive", "transfer-encoding"]);

/**
 * Lists with relative dates (the default window starts yesterday, `start_date=now`) change with the clock, not
 * only with writes: an answer is reused within the minute it was made in.
 */
function currentMinute(): number {
  return Math.floor(Date.now() / 60_000);
}

/** Anonymous reads of the API: the only answers that are the same for every caller. */
function isShared(request: FastifyRequest): boolean {
  return (
    (request.method === "GET" || request.method === "HEAD") &&
    request.headers.authorization === undefined &&
    isRestPath(request.routeOptions.url ?? "")
  );
}

/**
 * The origin links were built from (the configured public URL, else the request's Host: a forged Host gets its
 * own entry and never another client's), the path and query as sent, and what the client accepts (the document
 * is JSON or the explorer page).
 */
function keyOf(request: FastifyRequest): string {
  return `${requestOrigin(request)}\n${request.url}\n${request.headers.accept ?? ""}`;
}

/**
 * A shared in-process cache of anonymous API answers, bounded in bytes, validated on every request by the change
 * version: one primary-key read instead of the queries and the rendering, and a write through any instance sharing
 * the database is seen at once. A miss renders as usual and keeps the identity body with its headers (ETag,
 * Cache-Control, totals, Link); compression and 304s are done per request by the hooks after it.
 */
export function registerResponseCache(server: FastifyInstance, options: ResponseCacheOptions): void {
  if (options.maxBytes <= 0) return;
  const answers = new LRUCache<string, CachedAnswer>({
    maxSize: options.maxBytes,
    sizeCalculation: (answer) => Math.max(1, Buffer.byteLength(answer.body)),
  });
  const lookups = new WeakMap<FastifyRequest, Lookup>();

  server.addHook("onRequest", async (request, reply) => {
    if (!isShared(request)) return;
    let version: number;
    try {
      version = await options.readVersion();
    } catch {
      // The database is down: the handler answers as it does without a cache (503).
      return;
    }
    const key = keyOf(request);
    const cached = answers.get(key);
    const hit = cached !== undefined && cached.version === version && cached.minute === currentMinute();
    lookups.set(request, { key, version, hit });
    if (!hit) return;
    return reply.code(200).headers(cached.headers).send(cached.body);
  });

  server.addHook("onSend", async (request, reply, payload) => {
    const lookup = lookups.get(request);
    if (!lookup || lookup.hit || reply.statusCode !== 200) return payload;
    if (!(typeof payload === "string" || Buffer.isBuffer(payload))) return payload;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && !NOT_REPLAYED.has(name)) headers[name] = String(value);
    }
    answers.set(lookup.key, { version: lookup.version, minute: currentMinute(), headers, body: payload });
    return payload;
  });
}

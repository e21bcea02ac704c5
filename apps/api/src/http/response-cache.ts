import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { isRestPath, requestOrigin } from "../rest/base-paths.ts";
import { CachedAnswer } from "./cached-answer.ts";
import { versionAtStartOf } from "./change-version.reader.ts";
import type { Encoding, EncodingChoices } from "./compression.ts";
import { isNotModified } from "./conditional-get.ts";

/** Reads the calendar's change version (one primary-key read); a new version means some write committed. */
export type ChangeVersionReader = () => Promise<number>;

export interface ResponseCacheOptions {
  /** Bytes of bodies kept at most; 0 turns the cache off. */
  maxBytes: number;
  readVersion: ChangeVersionReader;
  /** The compression plugin's choices, shared with it (see `registerCompression`). */
  encodings: EncodingChoices;
}

interface Lookup {
  key: string;
  version: number;
  hit: boolean;
  /** The answer went through the compression plugin with a body it compresses when asked. */
  compressible?: boolean;
}

/**
 * Lists with relative dates (the default window starts yesterday, `start_date=now`) change with the clock, not
 * only with writes: an answer is reused within the minute it was made in.
 */
function currentMinute(): number {
  return Math.floor(Date.now() / 60_000);
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** Anonymous reads of the API: the only answers that are the same for every caller. */
export function isSharedRead(method: string | undefined, url: string, headers: IncomingHttpHeaders): boolean {
  return (method === "GET" || method === "HEAD") && headers.authorization === undefined && isRestPath(pathOf(url));
}

/**
 * The origin links were built from (the configured public URL, else the request's Host with its scheme, which a
 * trusted proxy's `X-Forwarded-Proto` may set: a forged Host gets its own entry and never another client's), the path and query as sent, what the client accepts (the document is
 * JSON or the explorer page), and its `Origin` (the CORS headers answer it). The encoding is chosen per hit from
 * `Accept-Encoding` among the answer's variants.
 */
export function cacheKeyOf(origin: string, url: string, headers: IncomingHttpHeaders): string {
  const { accept = "", origin: corsOrigin = "" } = headers;
  return `${origin}\n${url}\n${accept}\n${corsOrigin}`;
}

/**
 * Writes a hit on Node's response, skipping everything that made it (its headers are in the answer): a 304 when
 * the client's copy holds, else the body in the encoding the compression plugin chose for this client.
 */
export function writeHit(
  headers: IncomingHttpHeaders,
  response: ServerResponse,
  answer: CachedAnswer,
  encoding: Encoding,
): void {
  if (isNotModified(headers, answer.etag, answer.lastModified)) {
    response.writeHead(304, answer.notModifiedHeaders).end();
    return;
  }
  const variant = answer.variant(encoding);
  response.writeHead(200, variant.headers).end(variant.body);
}

/**
 * The answers kept, bounded in bytes: what the hooks of `registerResponseCache` fill and answer from, and what
 * the cache front (`cache-front.ts`) answers from before Fastify.
 */
export class ResponseCache {
  private readonly answers: LRUCache<string, CachedAnswer>;

  constructor(readonly options: ResponseCacheOptions) {
    this.answers = new LRUCache<string, CachedAnswer>({
      maxSize: Math.max(1, options.maxBytes),
      sizeCalculation: (answer) => answer.size,
    });
  }

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  /** The answer kept for a key, when it is still that of the change version read for this request. */
  current(key: string, version: number): CachedAnswer | undefined {
    const cached = this.answers.get(key);
    return cached !== undefined && this.isCurrent(cached, version) ? cached : undefined;
  }

  /** The answer kept for a key, whatever its version (the front reads the version only for keys it holds). */
  candidate(key: string): CachedAnswer | undefined {
    return this.answers.get(key);
  }

  /** Is this answer still valid for a request that read `version`? */
  isCurrent(answer: CachedAnswer, version: number): boolean {
    return answer.version === version && answer.minute === currentMinute();
  }

  keep(key: string, answer: CachedAnswer): void {
    this.answers.set(key, answer);
  }
}

/**
 * A shared in-process cache of anonymous API answers, bounded in bytes, validated on every request by the change
 * version: one primary-key read instead of the queries and the rendering, and a write through any instance sharing
 * the database is seen at once. A miss renders as usual and keeps the identity body with its headers (ETag,
 * Cache-Control, totals, Link). Most GET hits are answered before Fastify by the cache front (`cache-front.ts`);
 * the hits it leaves to Fastify are answered here, before parsing, routing into the procedures and authentication:
 * a GET at once with its 304 or compressed variant prepared once per answer; a HEAD, or a GET whose
 * `Accept-Encoding` the compression plugin has not answered yet, through the hooks after the cache.
 */
export function registerResponseCache(server: FastifyInstance, cache: ResponseCache): void {
  if (!cache.enabled) return;
  const { readVersion, encodings } = cache.options;
  const lookups = new WeakMap<FastifyRequest, Lookup>();

  server.addHook("onRequest", async (request, reply) => {
    if (!isSharedRead(request.method, request.url, request.headers)) return;
    let version: number;
    try {
      version = await versionAtStartOf(request, readVersion);
    } catch {
      // The database is down: the handler answers as it does without a cache (503).
      return;
    }
    const key = cacheKeyOf(requestOrigin(request), request.url, request.headers);
    const cached = cache.current(key, version);
    if (!cached) {
      lookups.set(request, { key, version, hit: false });
      return;
    }
    const encoding = request.method === "GET" ? encodings.choiceFor(request.headers) : undefined;
    if (encoding !== undefined) {
      reply.hijack();
      return writeHit(request.headers, reply.raw, cached, encoding);
    }
    lookups.set(request, { key, version, hit: true, compressible: cached.compressible });
    return reply.code(200).headers(cached.headers).send(cached.body);
  });

  server.addHook("onSend", async (request, reply, payload) => {
    const lookup = lookups.get(request);
    if (!lookup || lookup.hit || reply.statusCode !== 200) return payload;
    if (!(typeof payload === "string" || Buffer.isBuffer(payload))) return payload;
    const body = typeof payload === "string" ? Buffer.from(payload) : payload;
    const answer = new CachedAnswer(lookup.version, currentMinute(), reply.getHeaders(), body, encodings, {
      route: request.routeOptions.url,
    });
    cache.keep(lookup.key, answer);
    lookup.compressible = answer.compressible;
    return payload;
  });

  // After the compression plugin (its onSend hooks run last): what it chose for this Accept-Encoding.
  server.addHook("onResponse", async (request, reply) => {
    const accepted = request.headers["accept-encoding"];
    if (accepted === undefined || request.headers["x-no-compression"] !== undefined || reply.statusCode !== 200) return;
    if (lookups.get(request)?.compressible) encodings.remember(accepted, reply.getHeader("content-encoding"));
  });
}

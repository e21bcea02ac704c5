import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
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

/** Anonymous reads of the API: the only answers that are the same for every caller. */
function isShared(request: FastifyRequest): boolean {
  return (
    (request.method === "GET" || request.method === "HEAD") &&
    request.headers.authorization === undefined &&
    isRestPath(pathOf(request.url))
  );
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * The origin links were built from (the configured public URL, else the request's Host: a forged Host gets its
 * own entry and never another client's), the path and query as sent, what the client accepts (the document is
 * JSON or the explorer page), and its `Origin` (the CORS headers answer it).
 */
function keyOf(request: FastifyRequest): string {
  const { accept = "", origin = "" } = request.headers;
  return `${requestOrigin(request)}\n${request.url}\n${accept}\n${origin}`;
}

/**
 * Writes a hit straight to the socket, skipping the hooks that made it (their headers are in the answer): a 304
 * when the client's copy holds, else the body in the encoding the compression plugin chose for this client.
 */
function writeHit(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer, encoding: Encoding): void {
  reply.hijack();
  if (isNotModified(request.headers, answer.etag, answer.lastModified)) {
    reply.raw.writeHead(304, answer.notModifiedHeaders).end();
    return;
  }
  const { headers, body } = answer.variant(encoding);
  reply.raw.writeHead(200, headers).end(body);
}

/**
 * A shared in-process cache of anonymous API answers, bounded in bytes, validated on every request by the change
 * version: one primary-key read instead of the queries and the rendering, and a write through any instance sharing
 * the database is seen at once. A miss renders as usual and keeps the identity body with its headers (ETag,
 * Cache-Control, totals, Link). A hit of a GET is written at once, before parsing, routing into the procedures and
 * authentication, with its 304 or compressed variant prepared once per answer; a HEAD, or a GET whose
 * `Accept-Encoding` the compression plugin has not answered yet, goes through the hooks after the cache.
 */
export function registerResponseCache(server: FastifyInstance, options: ResponseCacheOptions): void {
  if (options.maxBytes <= 0) return;
  const answers = new LRUCache<string, CachedAnswer>({
    maxSize: options.maxBytes,
    sizeCalculation: (answer) => answer.size,
  });
  const lookups = new WeakMap<FastifyRequest, Lookup>();

  server.addHook("onRequest", async (request, reply) => {
    if (!isShared(request)) return;
    let version: number;
    try {
      version = await versionAtStartOf(request, options.readVersion);
    } catch {
      // The database is down: the handler answers as it does without a cache (503).
      return;
    }
    const key = keyOf(request);
    const cached = answers.get(key);
    const hit = cached !== undefined && cached.version === version && cached.minute === currentMinute();
    if (!hit) {
      lookups.set(request, { key, version, hit });
      return;
    }
    const encoding = request.method === "GET" ? options.encodings.choiceFor(request.headers) : undefined;
    if (encoding !== undefined) return writeHit(request, reply, cached, encoding);
    lookups.set(request, { key, version, hit, compressible: cached.compressible });
    return reply.code(200).headers(cached.headers).send(cached.body);
  });

  server.addHook("onSend", async (request, reply, payload) => {
    const lookup = lookups.get(request);
    if (!lookup || lookup.hit || reply.statusCode !== 200) return payload;
    if (!(typeof payload === "string" || Buffer.isBuffer(payload))) return payload;
    const body = typeof payload === "string" ? Buffer.from(payload) : payload;
    const answer = new CachedAnswer(lookup.version, currentMinute(), reply.getHeaders(), body, options.encodings);
    answers.set(lookup.key, answer);
    lookup.compressible = answer.compressible;
    return payload;
  });

  // After the compression plugin (its onSend hooks run last): what it chose for this Accept-Encoding.
  server.addHook("onResponse", async (request, reply) => {
    const accepted = request.headers["accept-encoding"];
    if (accepted === undefined || request.headers["x-no-compression"] !== undefined || reply.statusCode !== 200) return;
    if (lookups.get(request)?.compressible) options.encodings.remember(accepted, reply.getHeader("content-encoding"));
  });
}

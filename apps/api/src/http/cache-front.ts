import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { FastifyBaseLogger, FastifyInstance, FastifyServerFactory, FastifyServerFactoryHandler } from "fastify";
import type { CachedAnswer } from "./cached-answer.ts";
import { keepVersionOf } from "./change-version.reader.ts";
import type { Encoding } from "./compression.ts";
import { cacheKeyOf, isSharedRead, type ResponseCache, writeHit } from "./response-cache.ts";

export interface CacheFrontOptions {
  /** The origin links are built from when configured (`CALENDAR_PUBLIC_URL`), as `requestOrigin` reads it. */
  publicOrigin: string | undefined;
  /**
   * Behind a trusted proxy, without a public origin, links follow `X-Forwarded-*` as Fastify reads them: those
   * hits are left to the response cache's hook.
   */
  trustProxy: boolean;
  /** The request ids Fastify gives its requests, shared so that a hit's log line has one of the same series. */
  nextRequestId: () => string;
}

/** What Fastify hands its server factory and sets on the server it builds itself (`lib/server.js`). */
interface FastifyServerSettings {
  http?: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket?: number;
}

interface Candidate {
  answer: CachedAnswer;
  encoding: Encoding;
}

/** pino levels at which the request log writes its line (see `registerRequestLog`). */
const LOGGING_REQUESTS = new Set(["info", "debug", "trace"]);

/**
 * Anonymous GET hits of the response cache answered on Node's request listener, before Fastify: no routing, no
 * request and reply objects, no hooks. A hit is the answer those would give, with every rule of the cache's hook:
 * only anonymous GETs of the API, keyed by the origin links were built from, the URL, `Accept` and `Origin`, in
 * the encoding the compression plugin chose for this `Accept-Encoding`, and valid only for a change version read
 * after this request arrived (a write through any instance is seen at once; see `versionAfterArrival`).
 * Everything else goes to Fastify at once, and a miss after the version read goes to it with that version, which
 * its hooks use instead of reading another.
 *
 * What the hooks before the cache would have done to a hit, it does too: the request log writes the same line
 * (`request completed` with a request id of Fastify's series), and while the server drains every request goes to
 * Fastify, which refuses it with the draining 503. The hooks before the cache have nothing else to do with an
 * anonymous GET (the failed-authentication limit looks only at credentials, `OPTIONS` answers only `OPTIONS`),
 * and the security headers are part of the kept answer.
 */
export class CacheFront {
  private cache: ResponseCache | undefined;
  private log: FastifyBaseLogger | undefined;
  private draining = false;
  /** The read the requests that arrived since the last one started wait for, until it starts. */
  private nextRead: Promise<number> | undefined;

  constructor(private readonly options: CacheFrontOptions) {}

  /** Fastify's `serverFactory`: the HTTP server Fastify would build, with the front before Fastify's handler. */
  readonly serverFactory: FastifyServerFactory<Server> = (handler, factoryOptions) => {
    const settings = factoryOptions as unknown as FastifyServerSettings;
    const server = createServer(settings.http ?? {}, (request, response) => this.serve(request, response, handler));
    server.keepAliveTimeout = settings.keepAliveTimeout;
    server.requestTimeout = settings.requestTimeout;
    server.setTimeout(settings.connectionTimeout);
    if (settings.maxRequestsPerSocket !== undefined && settings.maxRequestsPerSocket > 0) {
      server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
    }
    return server;
  };

  /** Answers from this cache once the server is built (until then, and without a cache, Fastify answers all). */
  attach(server: FastifyInstance, cache: ResponseCache): void {
    if (!cache.enabled) return;
    this.cache = cache;
    this.log = server.log;
    server.addHook("preClose", async () => {
      this.draining = true;
    });
  }

  private serve(
    request: IncomingMessage,
    response: ServerResponse,
    handler: FastifyServerFactoryHandler<Server>,
  ): void {
    const cache = this.cache;
    const candidate = cache && !this.draining ? this.candidateFor(request, cache) : undefined;
    if (!cache || !candidate) {
      handler(request, response);
      return;
    }
    const started = performance.now();
    const version = this.versionAfterArrival(cache);
    version.then(
      (current) => {
        if (this.draining || !cache.isCurrent(candidate.answer, current)) {
          keepVersionOf(request, version);
          handler(request, response);
          return;
        }
        const log = this.log;
        if (log && LOGGING_REQUESTS.has(log.level)) this.logWhenWritten(log, request, response, candidate, started);
        writeHit(request.headers, response, candidate.answer, candidate.encoding);
      },
      () => {
        // The database is down: Fastify answers as it does without a cache (503), from the same failed read.
        keepVersionOf(request, version);
        handler(request, response);
      },
    );
  }

  /**
   * The change version read after this request arrived: the requests parsed in one turn of the event loop share
   * one read, started once that turn has parsed them all, so each gets a version no older than its arrival (a write
   * committed before it arrived is seen), for one primary-key read per turn instead of one per request.
   */
  private versionAfterArrival(cache: ResponseCache): Promise<number> {
    if (this.nextRead) return this.nextRead;
    const read = new Promise<number>((resolve, reject) => {
      setImmediate(() => {
        this.nextRead = undefined;
        cache.options.readVersion().then(resolve, reject);
      });
    });
    this.nextRead = read;
    return read;
  }

  /** A kept answer this request may get, before its version is read; undefined leaves the request to Fastify. */
  private candidateFor(request: IncomingMessage, cache: ResponseCache): Candidate | undefined {
    const { method, url = "", headers } = request;
    if (method !== "GET" || !isSharedRead(method, url, headers)) return undefined;
    const origin = this.originOf(request);
    if (origin === undefined) return undefined;
    const encoding = cache.options.encodings.choiceFor(headers);
    if (encoding === undefined) return undefined;
    const answer = cache.candidate(cacheKeyOf(origin, url, headers));
    return answer && { answer, encoding };
  }

  /** `requestOrigin` as Fastify's request reads it without a trusted proxy (`lib/request.js`). */
  private originOf(request: IncomingMessage): string | undefined {
    if (this.options.publicOrigin !== undefined) return this.options.publicOrigin;
    if (this.options.trustProxy) return undefined;
    const protocol = (request.socket as TLSSocket).encrypted ? "https" : "http";
    return `${protocol}://${request.headers.host ?? request.headers[":authority"] ?? ""}`;
  }

  /** The request log's line (see `registerRequestLog`), with the fields Fastify's request logger would bind. */
  private logWhenWritten(
    log: FastifyBaseLogger,
    request: IncomingMessage,
    response: ServerResponse,
    candidate: Candidate,
    started: number,
  ): void {
    const reqId = this.options.nextRequestId();
    response.once("finish", () => {
      log.info(
        {
          reqId,
          method: request.method,
          route: candidate.answer.route,
          url: request.url?.split("?")[0],
          status: response.statusCode,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
        },
        "request completed",
      );
    });
  }
}

/** Fastify's default request ids (`req-1`, `req-2`, … in base 36, wrapping at 2³¹), as one series per server. */
export function requestIdSeries(): () => string {
  let next = 0;
  return () => {
    next = (next + 1) & 2147483647;
    return `req-${next.toString(36)}`;
  };
}

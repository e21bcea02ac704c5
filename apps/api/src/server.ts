import {
  appRouter,
  type DbHandle,
  DEFAULT_SERIES_CAP,
  DEFAULT_SERIES_LIMITS,
  type OutputValidation,
  restRouter,
  type Site,
  setOutputValidation,
} from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import { registerAuthFailureLimit } from "./auth-failures.ts";
import { DEFAULT_IPV6_CLIENT_PREFIX } from "./client-address.ts";
import { writeClientError } from "./client-errors.ts";
import { registerDraining } from "./draining.ts";
import { registerEventPages } from "./event-page.ts";
import { registerHealthRoutes } from "./health.ts";
import { CacheFront, requestIdSeries } from "./http/cache-front.ts";
import { registerCacheHeaders } from "./http/cache-headers.ts";
import { changeVersionReader } from "./http/change-version.reader.ts";
import { EncodingChoices, registerCompression } from "./http/compression.ts";
import { registerEntityTags, registerNotModified } from "./http/conditional-get.ts";
import { registerOptionsAnswers } from "./http/options.ts";
import { ResponseCache, registerResponseCache } from "./http/response-cache.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { registerVersionTags } from "./http/version-tags.ts";
import { registerWritePreconditions } from "./http/write-preconditions.ts";
import { loggerOptions, registerRequestLog } from "./logging.ts";
import { type ProtectionOptions, registerProtection } from "./protection.ts";
import { registerRecordPages } from "./record-pages.ts";
import { isRestPath } from "./rest/base-paths.ts";
import { registerDiscoveryRoutes } from "./rest/discovery.ts";
import { NO_ROUTE, restError } from "./rest/envelope.ts";
import { handleRestError, restErrorFromFastify, sendRestError } from "./rest/errors.ts";
import { registerExplorerRoutes } from "./rest/explorer.ts";
import { icalRoutes, registerIcalNegotiation } from "./rest/ical.routes.ts";
import { restPlugin } from "./rest/plugin.ts";
import { parseQueryString, registerPathParameterCheck } from "./rest/request.ts";
import { registerDiscoveryHeader, registerWordPressRoot } from "./rest/wordpress-root.ts";
import { registerSeriesWorker } from "./series/series.plugin.ts";
import type { SeriesWorkerOptions } from "./series/series.worker.ts";
import { registerSiteRoot } from "./site-root.ts";
import { trpcPlugin } from "./trpc/plugin.ts";
import { fastifyTrustProxy, type TrustedProxies } from "./trusted-proxies.ts";
import { registerWebhookWorker } from "./webhooks/webhook.plugin.ts";
import type { WebhookWorkerOptions } from "./webhooks/webhook.worker.ts";

/** The router served as REST (with the REST-only aliases) and the one served over tRPC. */
interface ServedRouters {
  rest: AnyTRPCRouter;
  app: AnyTRPCRouter;
}

export interface ServerOptions extends Partial<ProtectionOptions> {
  handle: DbHandle;
  site: Site;
  bodyLimit: number;
  /** Milliseconds a client has to send a whole request. */
  requestTimeout?: number;
  /** The proxy hops whose `X-Forwarded-For`/`-Proto` are believed (`TRUST_PROXY`); none when absent. */
  trustProxy?: TrustedProxies;
  /** A pino level; no logging when absent. */
  logLevel?: string;
  /** The origin generated links use (`CALENDAR_PUBLIC_URL`); the request's scheme and Host when absent. */
  publicUrl?: string | undefined;
  /** Seconds shared caches may keep an anonymous answer before revalidating it. */
  cacheMaxAge?: number;
  /** Bytes the shared response cache keeps at most (`CALENDAR_CACHE_MB`); 0 or absent: no cache. */
  cacheBytes?: number;
  /** Failed authentications per minute per client address before 429; 0 turns the limit off. */
  authFailuresPerMinute?: number;
  /** The bits of an IPv6 address that name one client for that limit (`CALENDAR_AUTH_FAILURE_IPV6_PREFIX`). */
  authFailureIpv6Prefix?: number;
  /** The routers to serve; the calendar's own by default (tests of the adapters pass their own). */
  routers?: ServedRouters;
  /** iCalendar: the most events a feed holds, the site's name in it, the import's body limit and series cap. */
  ical?: Partial<{ maxEvents: number; siteName: string; importBodyLimit: number; seriesCap: number }>;
  /** Responses checked against their schemas (`exact`, the default) or not (`off`, production). */
  outputValidation?: OutputValidation;
  /** Runs the webhook worker while the server listens, with these settings; no worker when absent. */
  webhooks?: WebhookWorkerOptions;
  /** Runs the series worker (the horizon of rules without an end) while the server listens; none when absent. */
  series?: SeriesWorkerOptions;
  /**
   * tRPC GET queries answered without tRPC's Fetch-API round trip (the default); false sends every tRPC request
   * through tRPC's adapter, which the parity tests compare with.
   */
  trpcGetQueriesFirst?: boolean;
}

const ICAL_DEFAULTS = {
  maxEvents: 2_000,
  siteName: "Calendar",
  importBodyLimit: 10 * 1024 * 1024,
  seriesCap: DEFAULT_SERIES_CAP,
};

const NOT_FOUND = restError("not_found");

/** Without a public URL, behind a trusted proxy, the scheme of links is the proxy's `X-Forwarded-Proto`. */
function linksFollowForwardedProto(options: ServerOptions): boolean {
  return options.publicUrl === undefined && (options.trustProxy ?? false) !== false;
}

/** Fastify as the service configures it, on Node's HTTP server as the cache front builds it. */
function createFastify(options: ServerOptions, front: CacheFront, nextRequestId: () => string): FastifyInstance {
  const requestTimeout = options.requestTimeout ?? 30_000;
  return Fastify({
    // Node's HTTP server as Fastify builds it, with the response cache's hits answered before Fastify.
    serverFactory: front.serverFactory,
    genReqId: nextRequestId,
    logger: options.logLevel ? loggerOptions(options.logLevel) : false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit,
    requestTimeout,
    // Node enforces the timeout on a body still arriving only when given at construction, and checks for
    // requests past it every 30 s by default: every second honours the setting.
    http: { requestTimeout, connectionsCheckingInterval: 1_000 },
    clientErrorHandler: writeClientError,
    // Requests arriving while the server drains get the error envelope (see registerDraining).
    return503OnClosing: false,
    // Idle kept-alive connections close at once on close (not after keepAliveTimeout); see registerDraining.
    forceCloseConnections: "idle",
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    routerOptions: { querystringParser: parseQueryString, ignoreTrailingSlash: true, maxParamLength: 5_000 },
    // Errors raised before routing (a malformed percent-escape, say) get the same envelope.
    frameworkErrors: (error, _request, reply) => sendRestError(reply, restErrorFromFastify(error)),
  });
}

/**
 * In this order: the ETag is that of the identity body, the cache headers go on 304s too, the response cache
 * keeps the identity body of a 200 with both (also when this client gets a 304), then 304s and compression.
 */
async function registerHttpCaching(
  server: FastifyInstance,
  options: ServerOptions,
  front: CacheFront,
  router: AnyTRPCRouter,
) {
  registerEntityTags(server);
  registerCacheHeaders(server, {
    maxAge: options.cacheMaxAge ?? 0,
    linksFollowForwardedProto: linksFollowForwardedProto(options),
  });
  const readVersion = changeVersionReader(options.handle.db);
  const cache = new ResponseCache({ maxBytes: options.cacheBytes ?? 0, readVersion, encodings: new EncodingChoices() });
  registerResponseCache(server, cache);
  front.attach(server, cache);
  registerVersionTags(server, router, readVersion);
  registerNotModified(server);
  await registerCompression(server);
  registerWritePreconditions(server, router, { db: options.handle.db, readVersion });
}

/** The REST, iCalendar and tRPC routes, the health checks, the explorer and the event pages. */
async function registerRoutes(server: FastifyInstance, options: ServerOptions, routers: ServedRouters) {
  const served = { handle: options.handle, site: options.site };
  registerHealthRoutes(server, options.handle);
  registerExplorerRoutes(server);
  const publicHost = options.publicUrl === undefined ? undefined : new URL(options.publicUrl).host;
  const ical = { ...ICAL_DEFAULTS, ...options.ical, ...served, publicHost };
  registerSiteRoot(server, ical.siteName);
  await server.register(async (app) => {
    registerIcalNegotiation(app, ical);
    await restPlugin(app, { router: routers.rest, ...served });
    registerDiscoveryRoutes(app, routers.rest);
    registerWordPressRoot(app, { router: routers.rest, site: options.site, siteName: ical.siteName });
  });
  await server.register(icalRoutes, ical);
  await server.register(trpcPlugin, {
    router: routers.app,
    ...served,
    getQueriesFirst: options.trpcGetQueriesFirst ?? true,
  });
  // The records' `url`s point here unless a public site shows them.
  if (!options.site.siteUrl) {
    registerEventPages(server, served);
    registerRecordPages(server, served);
  }
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const nextRequestId = requestIdSeries();
  const front = new CacheFront({
    publicOrigin: options.publicUrl,
    trustProxy: linksFollowForwardedProto(options),
    nextRequestId,
  });
  const server = createFastify(options, front, nextRequestId);
  const routers = options.routers ?? { rest: restRouter, app: appRouter };
  for (const served of [routers.rest, routers.app]) setOutputValidation(served, options.outputValidation ?? "exact");

  server.setErrorHandler(handleRestError);
  server.decorate("publicOrigin", options.publicUrl);
  registerDraining(server);
  registerPathParameterCheck(server);
  if (options.webhooks) {
    registerWebhookWorker(server, {
      handle: options.handle,
      site: options.site,
      publicUrl: options.publicUrl,
      options: options.webhooks,
    });
  }
  if (options.series) {
    registerSeriesWorker(server, {
      handle: options.handle,
      limits: options.site.seriesLimits ?? DEFAULT_SERIES_LIMITS,
      options: options.series,
    });
  }
  registerRequestLog(server);
  registerSecurityHeaders(server);
  registerDiscoveryHeader(server);
  registerOptionsAnswers(server, routers.rest, (options.corsOrigins ?? []).length > 0);
  registerAuthFailureLimit(server, options.handle.db, {
    limit: options.authFailuresPerMinute ?? 0,
    ipv6Prefix: options.authFailureIpv6Prefix ?? DEFAULT_IPV6_CLIENT_PREFIX,
  });
  await registerHttpCaching(server, options, front, routers.rest);
  await registerProtection(server, options.handle.db, {
    corsOrigins: options.corsOrigins ?? [],
    writesPerMinute: options.writesPerMinute ?? 0,
    seriesOccurrencesPerHour: options.seriesOccurrencesPerHour ?? 0,
  });
  await registerRoutes(server, options, routers);

  server.setNotFoundHandler((request, reply) =>
    sendRestError(reply, isRestPath(request.url.split("?")[0] ?? "") ? NO_ROUTE : NOT_FOUND),
  );
  return server;
}

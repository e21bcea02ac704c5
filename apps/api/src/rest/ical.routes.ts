import {
  type DbHandle,
  eventFeed,
  eventFileById,
  eventFileBySlug,
  eventListQuery,
  type FeedOptions,
  importCalendar,
  importQuery,
  type Language,
  parseOrThrow,
  pathId,
  type Scope,
  type Site,
  scopeOf,
} from "@calendar/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import Negotiator from "negotiator";
import { z } from "zod";
import { type RestBase, SERVED_BASES } from "./base-paths.ts";
import { restError } from "./envelope.ts";
import { sendRestError } from "./errors.ts";
import { fileQuery, slugParam } from "./ical.operations.ts";
import { restContext } from "./plugin.ts";

export interface IcalRouteOptions extends FeedOptions {
  handle: DbHandle;
  site: Site;
  /** Largest body of `POST /import`, in bytes (`CALENDAR_IMPORT_BODY_LIMIT`). */
  importBodyLimit: number;
  /** The most occurrences of one imported series. */
  seriesCap: number;
}

export const CALENDAR_TYPE = "text/calendar; charset=utf-8";

async function scopeFor(
  request: FastifyRequest,
  base: RestBase,
  options: IcalRouteOptions,
  language: Language | undefined,
): Promise<Scope> {
  // The answers are iCalendar, not a procedure's JSON: no status or headers for the REST adapter to send.
  return scopeOf(await restContext(request, base, options, null), language);
}

/**
 * The feed's chunks as one UTF-8 body, each encoded as it is made: the feed's text is never one string, and the
 * body is the bytes that go out (the ETag is their hash, the response cache keeps them) rather than a string encoded
 * again by every hook that reads it.
 */
async function bodyOf(chunks: AsyncIterable<string>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

function sendCalendar(reply: FastifyReply, body: string | Buffer, filename?: string): FastifyReply {
  if (filename) reply.header("content-disposition", `inline; filename="${filename}.ics"`);
  return reply.type(CALENDAR_TYPE).send(body);
}

async function answerFeed(request: FastifyRequest, reply: FastifyReply, base: RestBase, options: IcalRouteOptions) {
  const query = parseOrThrow(eventListQuery, request.query);
  const scope = await scopeFor(request, base, options, query.ml_language);
  return sendCalendar(reply, await bodyOf(await eventFeed(scope, query, options)));
}

/** Does the request prefer iCalendar to JSON (`Accept: text/calendar`, no JSON preferred)? */
export function prefersCalendar(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept?.includes("text/calendar")) return false;
  return new Negotiator(request).mediaType(["application/json", "text/calendar"]) === "text/calendar";
}

/**
 * In the REST scope: `GET /events` asking for `text/calendar` is answered as `GET /events.ics` before the JSON
 * procedure runs.
 */
export function registerIcalNegotiation(app: FastifyInstance, options: IcalRouteOptions): void {
  const listPaths = new Map(SERVED_BASES.map((base) => [`${base.path}/events`, base]));
  app.addHook("onRequest", async (request, reply) => {
    if (request.method !== "GET" && request.method !== "HEAD") return;
    const path = (request.url.split("?")[0] ?? "").replace(/\/$/, "");
    const base = listPaths.get(path);
    if (!base || !prefersCalendar(request)) return;
    reply.header("vary", "Accept");
    return answerFeed(request, reply, base, options);
  });
}

const UNSUPPORTED_TYPE = restError("rest_unsupported_media_type", { expected: "text/calendar" });

/** The `.ics` routes and `POST /import` under every base path, beside the JSON body handling of the REST scope. */
export async function icalRoutes(app: FastifyInstance, options: IcalRouteOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("text/calendar", { parseAs: "string" }, (_request, body, done) => done(null, body));
  app.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
  for (const base of SERVED_BASES) {
    app.get(`${base.path}/events.ics`, (request, reply) => answerFeed(request, reply, base, options));
    app.get<{ Params: { id: string } }>(`${base.path}/events/:id.ics`, async (request, reply) => {
      const { password, ml_language } = parseOrThrow(fileQuery, request.query);
      const id = parseOrThrow(z.object({ id: pathId }), request.params).id;
      const scope = await scopeFor(request, base, options, ml_language);
      return sendCalendar(reply, await eventFileById(scope, { id, password }, options), `event-${id}`);
    });
    app.get(`${base.path}/events/by-slug/:slug.ics`, async (request, reply) => {
      const { password, ml_language } = parseOrThrow(fileQuery, request.query);
      const { slug } = parseOrThrow(slugParam, request.params);
      const scope = await scopeFor(request, base, options, ml_language);
      return sendCalendar(reply, await eventFileBySlug(scope, { slug, password }, options), slug);
    });
    app.post(`${base.path}/import`, { bodyLimit: options.importBodyLimit }, async (request, reply) => {
      const query = parseOrThrow(importQuery, request.query);
      const scope = await scopeFor(request, base, options, query.ml_language);
      if (typeof request.body !== "string") return sendRestError(reply, UNSUPPORTED_TYPE);
      const result = await importCalendar(scope, request.body, {
        dryRun: query.dry_run ?? false,
        horizonMonths: query.horizon_months,
        seriesCap: options.seriesCap,
        publicHost: options.publicHost,
      });
      return reply.type("application/json; charset=utf-8").send(result);
    });
  }
}

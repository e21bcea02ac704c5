import { type ChargeEvents, can, type Db, domainError } from "@calendar/core";
import cors from "@fastify/cors";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { actorFromAuthorization } from "./auth.ts";
import { FixedWindowCounter } from "./fixed-window.ts";
import { restError } from "./rest/envelope.ts";
import { sendRestError } from "./rest/errors.ts";

export interface ProtectionOptions {
  /** Origins allowed to call the API from browsers (`*` for any); none by default. */
  corsOrigins: string[];
  /**
   * Writes per minute per client (its user, else its address); 0 turns the limit off. A series write counts each
   * event it writes beyond the first (a 1,000-occurrence create counts 1,000).
   */
  writesPerMinute: number;
  /**
   * Occurrences of series a user below editor (contributors, authors) may create per hour, across their requests;
   * 0 turns the quota off.
   */
  seriesOccurrencesPerHour: number;
}

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const TOTAL_HEADERS = ["X-WP-Total", "X-WP-TotalPages", "X-TEC-Total", "X-TEC-TotalPages"];
const WINDOW_MS = 60_000;
const QUOTA_WINDOW_MS = 60 * WINDOW_MS;
/** Clients remembered at most; the oldest window is forgotten first. */
const MAX_CLIENTS = 10_000;
const TRPC_PREFIX = "/trpc/";

/**
 * How many writes a request makes: each procedure of a tRPC batch (`/trpc/a,b,c?batch=1`, the procedures
 * comma-separated in the path) is one, any other request one.
 */
function writesIn(request: FastifyRequest): number {
  const [path = "", query = ""] = request.url.split("?", 2);
  if (!path.startsWith(TRPC_PREFIX) || new URLSearchParams(query).get("batch") !== "1") return 1;
  return path.slice(TRPC_PREFIX.length).split(/,|%2c/i).length;
}

/** The client a write is charged to, and whether the occurrence quota applies to it. */
async function clientOf(db: Db, request: FastifyRequest): Promise<{ key: string; quota: boolean }> {
  // A client is the user its credentials authenticate (whatever header spells them: `Bearer`, `Basic`, extra
  // spaces), else its address (anonymous, or credentials that fail and are answered 401 anyway).
  const actor = await actorFromAuthorization(db, request.headers.authorization).catch(() => undefined);
  if (actor?.kind !== "user") return { key: `address:${request.ip}`, quota: false };
  return { key: `user:${actor.id}`, quota: !can(actor, "edit_others_posts") };
}

const charges = new WeakMap<FastifyRequest, ChargeEvents>();
const refunds = new WeakMap<FastifyRequest, () => void>();

/** What a request's series writes are charged with (`Context.chargeEvents`); undefined when no limit applies. */
export function chargeEventsOf(request: FastifyRequest): ChargeEvents | undefined {
  return charges.get(request);
}

function tooMany(reply: FastifyReply, what: string, retryAfter: number): Error {
  reply.header("retry-after", String(retryAfter));
  return domainError("rest_too_many_requests", { reason: `Too many ${what}; retry in ${retryAfter} s.` });
}

/**
 * Writes per client in a fixed one-minute window: a request whose writes would take the client past the limit is
 * refused whole (429 with `Retry-After`) and not counted; reads are never limited. A series write is charged the
 * events it writes beyond its request's one, and the occurrences it creates against the hourly quota of users
 * below editor, before it writes them: past either, it is refused (429) and writes nothing. A write that fails
 * (any 4xx or 5xx) is given back what it was charged for its events.
 */
function registerWriteLimits(server: FastifyInstance, db: Db, options: ProtectionOptions): void {
  const writes = new FixedWindowCounter(WINDOW_MS, MAX_CLIENTS);
  const occurrences = new FixedWindowCounter(QUOTA_WINDOW_MS, MAX_CLIENTS);
  const { writesPerMinute, seriesOccurrencesPerHour } = options;
  server.addHook("onResponse", async (request, reply) => {
    if (reply.statusCode >= 400) refunds.get(request)?.();
  });
  server.addHook("onRequest", async (request, reply) => {
    if (READ_METHODS.has(request.method)) return;
    const client = await clientOf(db, request);
    const count = writesIn(request);
    if (writesPerMinute > 0 && writes.count(client.key) + count > writesPerMinute) {
      const retryAfter = writes.secondsLeft(client.key);
      reply.header("retry-after", String(retryAfter));
      const reason = `Too many writes; retry in ${retryAfter} s.`;
      return sendRestError(reply, restError("rest_too_many_requests", { reason }));
    }
    if (writesPerMinute > 0) writes.add(client.key, count);
    const charged = { written: 0, created: 0 };
    charges.set(request, ({ written, created }) => {
      const quota = client.quota && seriesOccurrencesPerHour > 0 && created > 0;
      if (quota && occurrences.count(client.key) + created > seriesOccurrencesPerHour) {
        throw tooMany(reply, "occurrences created this hour", occurrences.secondsLeft(client.key));
      }
      if (writesPerMinute > 0 && written > 0 && writes.count(client.key) + written > writesPerMinute) {
        throw tooMany(reply, "writes", writes.secondsLeft(client.key));
      }
      if (quota) {
        occurrences.add(client.key, created);
        charged.created += created;
      }
      if (writesPerMinute > 0 && written > 0) {
        writes.add(client.key, written);
        charged.written += written;
      }
    });
    refunds.set(request, () => {
      // A refused or failed write wrote nothing: what it was charged beyond its request's one write is given back,
      // unless the window it was charged in has ended.
      if (charged.written > 0 && writes.count(client.key) >= charged.written) writes.add(client.key, -charged.written);
      if (charged.created > 0 && occurrences.count(client.key) >= charged.created) {
        occurrences.add(client.key, -charged.created);
      }
    });
  });
}

/** CORS for the configured origins, a per-client rate limit on writes and a per-user quota of occurrences. */
export async function registerProtection(server: FastifyInstance, db: Db, options: ProtectionOptions): Promise<void> {
  if (options.corsOrigins.length > 0) {
    await server.register(cors, {
      origin: options.corsOrigins.includes("*") ? true : options.corsOrigins,
      methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      allowedHeaders: ["Authorization", "Content-Type", "trpc-accept"],
      exposedHeaders: TOTAL_HEADERS,
      maxAge: 600,
    });
  }
  if (options.writesPerMinute > 0 || options.seriesOccurrencesPerHour > 0) registerWriteLimits(server, db, options);
}

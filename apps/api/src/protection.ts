import type { Db } from "@calendar/core";
import cors from "@fastify/cors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { actorFromAuthorization } from "./auth.ts";
import { FixedWindowCounter } from "./fixed-window.ts";
import { restError } from "./rest/envelope.ts";
import { sendRestError } from "./rest/errors.ts";

export interface ProtectionOptions {
  /** Origins allowed to call the API from browsers (`*` for any); none by default. */
  corsOrigins: string[];
  /** Writes per minute per client (its user, else its address); 0 turns the limit off. */
  writesPerMinute: number;
}

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const TOTAL_HEADERS = ["X-WP-Total", "X-WP-TotalPages", "X-TEC-Total", "X-TEC-TotalPages"];
const WINDOW_MS = 60_000;
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

/**
 * A client is the user its credentials authenticate (whatever header spells them: `Bearer`, `Basic`, extra
 * spaces), else its address (anonymous, or credentials that fail and are answered 401 anyway).
 */
async function clientOf(db: Db, request: FastifyRequest): Promise<string> {
  const actor = await actorFromAuthorization(db, request.headers.authorization).catch(() => undefined);
  return actor?.kind === "user" ? `user:${actor.id}` : `address:${request.ip}`;
}

/**
 * Writes per client in a fixed one-minute window: a request whose writes would take the client past the limit is
 * refused whole (429 with `Retry-After`) and not counted; reads are never limited.
 */
function registerWriteLimit(server: FastifyInstance, db: Db, limit: number): void {
  const writes = new FixedWindowCounter(WINDOW_MS, MAX_CLIENTS);
  server.addHook("onRequest", async (request, reply) => {
    if (READ_METHODS.has(request.method)) return;
    const client = await clientOf(db, request);
    const count = writesIn(request);
    if (writes.count(client) + count <= limit) {
      writes.add(client, count);
      return;
    }
    const retryAfter = writes.secondsLeft(client);
    reply.header("retry-after", String(retryAfter));
    return sendRestError(
      reply,
      restError("rest_too_many_requests", { reason: `Too many writes; retry in ${retryAfter} s.` }),
    );
  });
}

/** CORS for the configured origins, and a per-client rate limit on writes. */
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
  if (options.writesPerMinute > 0) registerWriteLimit(server, db, options.writesPerMinute);
}

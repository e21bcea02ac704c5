import { createHash } from "node:crypto";
import cors from "@fastify/cors";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { restError } from "./rest/envelope.ts";

export interface ProtectionOptions {
  /** Origins allowed to call the API from browsers (`*` for any); none by default. */
  corsOrigins: string[];
  /** Writes per minute per client (token, else address); 0 turns the limit off. */
  writesPerMinute: number;
}

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const TOTAL_HEADERS = ["X-WP-Total", "X-WP-TotalPages", "X-TEC-Total", "X-TEC-TotalPages"];

/** A client is its credentials when it sends some (hashed: keys are kept in memory), else its address. */
function clientKey(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  return authorization ? createHash("sha256").update(authorization).digest("base64url") : request.ip;
}

/** CORS for the configured origins, and a per-client rate limit on writes (429 with Retry-After). */
export async function registerProtection(server: FastifyInstance, options: ProtectionOptions): Promise<void> {
  if (options.corsOrigins.length > 0) {
    await server.register(cors, {
      origin: options.corsOrigins.includes("*") ? true : options.corsOrigins,
      methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      allowedHeaders: ["Authorization", "Content-Type", "trpc-accept"],
      exposedHeaders: TOTAL_HEADERS,
      maxAge: 600,
    });
  }
  if (options.writesPerMinute > 0) {
    await server.register(rateLimit, {
      max: options.writesPerMinute,
      timeWindow: 60_000,
      keyGenerator: clientKey,
      allowList: (request) => READ_METHODS.has(request.method),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        ...restError("rest_too_many_requests", {
          reason: `Too many writes; retry in ${Math.ceil(context.ttl / 1000)} s.`,
        }),
      }),
    });
  }
}

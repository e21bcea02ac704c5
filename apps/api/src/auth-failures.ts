import type { Db } from "@calendar/core";
import type { FastifyInstance } from "fastify";
import { actorFromAuthorization } from "./auth.ts";
import { restError } from "./rest/envelope.ts";
import { sendRestError } from "./rest/errors.ts";

const WINDOW_MS = 60_000;
/** Addresses remembered at most; the oldest window is forgotten first. */
const MAX_ADDRESSES = 10_000;

interface Window {
  failures: number;
  endsAt: number;
}

/** Failed authentications per client address in a fixed one-minute window. */
export class AuthFailureCounter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limit: number) {}

  record(address: string, now = Date.now()): void {
    const current = this.windows.get(address);
    if (current && current.endsAt > now) {
      current.failures += 1;
      return;
    }
    this.windows.delete(address);
    if (this.windows.size >= MAX_ADDRESSES) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
    this.windows.set(address, { failures: 1, endsAt: now + WINDOW_MS });
  }

  /** Seconds until the address may fail again, when it is over the limit. */
  retryAfter(address: string, now = Date.now()): number | undefined {
    const current = this.windows.get(address);
    if (!current || current.endsAt <= now || current.failures < this.limit) return undefined;
    return Math.ceil((current.endsAt - now) / 1000);
  }
}

/**
 * Brute force against tokens: once an address has failed to authenticate `limit` times in a minute, its requests
 * with wrong credentials get 429 with `Retry-After` instead of being tried. Credentials that are right still pass
 * (they are checked once more here, only while the address is over the limit); anonymous requests are not touched.
 */
export function registerAuthFailureLimit(server: FastifyInstance, db: Db, limit: number): void {
  if (limit <= 0) return;
  const counter = new AuthFailureCounter(limit);
  server.addHook("onRequest", async (request, reply) => {
    const authorization = request.headers.authorization;
    if (!authorization) return;
    const retryAfter = counter.retryAfter(request.ip);
    if (retryAfter === undefined) return;
    const authenticated = await actorFromAuthorization(db, authorization).then(
      () => true,
      () => false,
    );
    if (authenticated) return;
    reply.header("retry-after", String(retryAfter));
    return sendRestError(
      reply,
      restError("rest_too_many_requests", { reason: `Too many failed authentications; retry in ${retryAfter} s.` }),
    );
  });
  server.addHook("onResponse", async (request, reply) => {
    if (reply.statusCode === 401 && request.headers.authorization) counter.record(request.ip);
  });
}

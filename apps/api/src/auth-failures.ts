import type { Db } from "@calendar/core";
import type { FastifyInstance } from "fastify";
import { actorFromAuthorization } from "./auth.ts";
import { clientAddressKey } from "./client-address.ts";
import { FixedWindowCounter } from "./fixed-window.ts";
import { restError } from "./rest/envelope.ts";
import { sendRestError } from "./rest/errors.ts";

const WINDOW_MS = 60_000;
/** Addresses remembered at most; the oldest window is forgotten first. */
const MAX_ADDRESSES = 10_000;

/**
 * Brute force against tokens: once an address has failed to authenticate `limit` times in a minute, its requests
 * with wrong credentials get 429 with `Retry-After` instead of being tried. Credentials that are right still pass
 * (they are checked once more here, only while the address is over the limit); anonymous requests are not touched.
 * The address is `request.ip`: behind proxies, the hop `TRUST_PROXY` trusts last, never what the client wrote; an
 * IPv6 client is its network of `ipv6Prefix` bits, as it may send from any address of it.
 */
export function registerAuthFailureLimit(
  server: FastifyInstance,
  db: Db,
  settings: { limit: number; ipv6Prefix: number },
): void {
  const { limit, ipv6Prefix } = settings;
  if (limit <= 0) return;
  const failures = new FixedWindowCounter(WINDOW_MS, MAX_ADDRESSES);
  server.addHook("onRequest", async (request, reply) => {
    const authorization = request.headers.authorization;
    const client = clientAddressKey(request.ip, ipv6Prefix);
    if (!authorization || failures.count(client) < limit) return;
    const authenticated = await actorFromAuthorization(db, authorization).then(
      () => true,
      () => false,
    );
    if (authenticated) return;
    const retryAfter = failures.secondsLeft(client);
    reply.header("retry-after", String(retryAfter));
    return sendRestError(
      reply,
      restError("rest_too_many_requests", { reason: `Too many failed authentications; retry in ${retryAfter} s.` }),
    );
  });
  server.addHook("onResponse", async (request, reply) => {
    if (reply.statusCode === 401 && request.headers.authorization) {
      failures.add(clientAddressKey(request.ip, ipv6Prefix), 1);
    }
  });
}

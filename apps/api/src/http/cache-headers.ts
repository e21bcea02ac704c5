import type { FastifyInstance, FastifyReply } from "fastify";
import { isRestPath } from "../rest/base-paths.ts";
import { isHeadRequest } from "./head.ts";

/** Adds tokens to `Vary`, each once (lower-case `accept-encoding`, as the compression plugin looks for it). */
export function addVary(reply: FastifyReply, ...tokens: string[]): void {
  const current = reply.getHeader("vary")?.toString() ?? "";
  const names = current
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  for (const token of tokens) {
    if (!names.some((name) => name.toLowerCase() === token.toLowerCase())) names.push(token);
  }
  reply.header("vary", names.join(", "));
}

export interface CacheHeaderOptions {
  /** Seconds shared caches may keep an anonymous answer before revalidating it. */
  maxAge: number;
  /** The scheme of links comes from a trusted proxy's `X-Forwarded-Proto` (see `requestOrigin`). */
  linksFollowForwardedProto: boolean;
}

/**
 * Successful API reads say who may keep them: anonymous answers are public (revalidated after `maxAge` seconds),
 * answers to a caller with credentials private; they vary by credentials and by encoding, and by the forwarded
 * scheme when their links follow it, so that no shared cache hands an answer with `http` links to `https` clients.
 */
export function registerCacheHeaders(server: FastifyInstance, options: CacheHeaderOptions): void {
  const publicPolicy = `public, max-age=${options.maxAge}, must-revalidate`;
  const vary = [
    "Authorization",
    "accept-encoding",
    ...(options.linksFollowForwardedProto ? ["X-Forwarded-Proto"] : []),
  ];
  server.addHook("onSend", async (request, reply, payload) => {
    if (request.method !== "GET" && !isHeadRequest(request)) return payload;
    // A 304 made after rendering (registerNotModified) keeps the headers of its 200; one made before it gets them here.
    if ((reply.statusCode !== 200 && reply.statusCode !== 304) || !isRestPath(request.routeOptions.url ?? "")) {
      return payload;
    }
    reply.header("cache-control", request.headers.authorization ? "private, max-age=0, must-revalidate" : publicPolicy);
    addVary(reply, ...vary);
    return payload;
  });
}

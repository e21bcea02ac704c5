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

/**
 * Successful API reads say who may keep them: anonymous answers are public (revalidated after `maxAge` seconds),
 * answers to a caller with credentials private; they vary by credentials and by encoding.
 */
export function registerCacheHeaders(server: FastifyInstance, maxAge: number): void {
  const publicPolicy = `public, max-age=${maxAge}, must-revalidate`;
  server.addHook("onSend", async (request, reply, payload) => {
    if (request.method !== "GET" && !isHeadRequest(request)) return payload;
    // A 304 made after rendering (registerNotModified) keeps the headers of its 200; one made before it gets them here.
    if ((reply.statusCode !== 200 && reply.statusCode !== 304) || !isRestPath(request.routeOptions.url ?? "")) {
      return payload;
    }
    reply.header("cache-control", request.headers.authorization ? "private, max-age=0, must-revalidate" : publicPolicy);
    addVary(reply, "Authorization", "accept-encoding");
    return payload;
  });
}

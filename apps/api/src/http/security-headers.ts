import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";

/** `nosniff` on every answer Fastify writes (the raw client-error answers set it themselves). */
export function registerSecurityHeaders(server: FastifyInstance): void {
  server.addHook("onSend", async (_request, reply) => {
    reply.header("x-content-type-options", "nosniff");
  });
}

/**
 * The explorer page's policy: its own files only, and its one inline script by hash. Swagger UI styles elements
 * inline and draws icons from data: URLs; "Try it out" calls the API on the same origin.
 */
export function setPagePolicy(reply: FastifyReply, inlineScript: string): FastifyReply {
  const hash = createHash("sha256").update(inlineScript).digest("base64");
  return reply
    .header(
      "content-security-policy",
      [
        "default-src 'self'",
        `script-src 'self' 'sha256-${hash}'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ].join("; "),
    )
    .header("referrer-policy", "no-referrer");
}

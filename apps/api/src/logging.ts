import type { FastifyInstance, FastifyServerOptions } from "fastify";

/**
 * Structured JSON logs (pino): one line per request with its id, method, route, status and duration.
 * Credentials never reach the log: headers are not logged, and the redaction covers them anyway.
 */
export function loggerOptions(level: string): FastifyServerOptions["logger"] {
  return {
    level,
    redact: ["req.headers.authorization", "req.headers.cookie", "headers.authorization"],
  };
}

export function registerRequestLog(server: FastifyInstance): void {
  server.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url,
        url: request.url.split("?")[0],
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      "request completed",
    );
  });
}

import type { FastifyInstance, FastifyRequest } from "fastify";

const SHOWN_AS_GET = Symbol("HEAD shown to the handler as GET");

type MarkedRequest = FastifyRequest & { [SHOWN_AS_GET]?: true };

/** Is this a HEAD request, also while its handler is shown a GET? */
export function isHeadRequest(request: FastifyRequest): boolean {
  return request.raw.method === "HEAD" || (request as MarkedRequest)[SHOWN_AS_GET] === true;
}

/**
 * trpc-to-openapi looks procedures up by method and answers any HEAD with an empty 204. Fastify's HEAD route
 * (exposeHeadRoutes) already drops the body of whatever the handler answers and keeps its Content-Length, so the
 * handler is shown a GET, and the method is HEAD again before Fastify writes the answer (it decides on
 * Content-Length by the method, and Node sends no body for a HEAD whatever the method reads by then).
 */
export function serveHeadAsGet(app: FastifyInstance): void {
  app.addHook("preHandler", async (request: MarkedRequest) => {
    if (request.raw.method !== "HEAD") return;
    request.raw.method = "GET";
    request[SHOWN_AS_GET] = true;
  });
  app.addHook("onSend", async (request: MarkedRequest) => {
    if (request[SHOWN_AS_GET]) request.raw.method = "HEAD";
  });
}

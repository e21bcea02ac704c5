import type { FastifyInstance, RouteHandlerMethod } from "fastify";

/**
 * trpc-to-openapi's Fastify route calls `reply.send` and resolves with nothing. Fastify then sends an empty answer
 * of its own if the first one has not been written yet, which happens when an `onSend` hook hands on a stream
 * (compression of a large body): the client got `Content-Length: 0`. Resolving with the reply (a thenable that
 * settles once the answer is written) tells Fastify the answer is under way.
 */
export function resolveWithReply(app: FastifyInstance): void {
  app.addHook("onRoute", (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function (request, reply) {
      await handler.call(this, request, reply);
      return reply;
    };
  });
}

import type { FastifyInstance } from "fastify";
import { restError } from "./rest/envelope.ts";
import { sendRestError } from "./rest/errors.ts";

const SHUTTING_DOWN = restError("rest_shutting_down");

/**
 * While the server drains for a shutdown, requests still arriving on open keep-alive connections are refused
 * with 503 in the error envelope (and `Retry-After`), rather than started; requests already in flight finish.
 * Every answer then closes its connection. This replaces Fastify's own 503 for that case, whose body is not the
 * envelope.
 */
export function registerDraining(server: FastifyInstance): void {
  let draining = false;
  server.addHook("preClose", async () => {
    draining = true;
  });
  server.addHook("onRequest", async (_request, reply) => {
    if (!draining) return;
    reply.header("connection", "close").header("retry-after", "1");
    return sendRestError(reply, SHUTTING_DOWN);
  });
  // A kept-alive connection would hold the server open after its last answer until it times out: close it.
  server.addHook("onSend", async (_request, reply, payload) => {
    if (draining) reply.header("connection", "close");
    return payload;
  });
}

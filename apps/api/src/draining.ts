import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { restError } from "./rest/envelope.ts";
import { sendRestError } from "./rest/errors.ts";

const SHUTTING_DOWN = restError("rest_shutting_down");
/** How long a connection may stay silent once the server drains: bytes already on their way arrive by then. */
const SILENT_GRACE_MS = 500;

/**
 * The connections that have not sent a byte yet, to close when the server drains (after `SILENT_GRACE_MS`). Node's
 * `closeIdleConnections` (which Fastify calls on close, `forceCloseConnections: "idle"`) closes the kept-alive ones
 * between requests, but not these: they would hold the server open until the client gives up. One that has sent
 * part of a request is left to finish it and get the draining 503.
 */
function silentConnections(http: Server): { closeSoon(): void } {
  const open = new Set<Socket>();
  http.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  const close = () => {
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  };
  return {
    closeSoon() {
      setTimeout(close, SILENT_GRACE_MS).unref();
    },
  };
}

/**
 * While the server drains for a shutdown, requests still arriving on open keep-alive connections are refused
 * with 503 in the error envelope (and `Retry-After`), rather than started; requests already in flight finish.
 * Every answer then closes its connection, and connections that are idle close at once. This replaces Fastify's
 * own 503 for that case, whose body is not the envelope.
 */
export function registerDraining(server: FastifyInstance): void {
  let draining = false;
  const silent = silentConnections(server.server);
  server.addHook("preClose", async () => {
    draining = true;
    silent.closeSoon();
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

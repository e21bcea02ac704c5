import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { restError } from "./rest/envelope.ts";
import { sendRestError } from "./rest/errors.ts";

const SHUTTING_DOWN = restError("rest_shutting_down");
/** How long a connection may stay silent once the server drains: bytes already on their way arrive by then. */
const SILENT_GRACE_MS = 500;

/**
 * Closes connections as soon as they idle once the server drains. Node's `closeIdleConnections` (which Fastify
 * calls on close, `forceCloseConnections: "idle"`) closes only those idle at that moment: one whose answer was
 * still being written then, or that had sent nothing yet, would hold the server open until it times out
 * (`keepAliveTimeout`, 72 s) or the client gives up. So each answer finished while draining closes the idle ones
 * again, and a connection still silent `SILENT_GRACE_MS` after draining began is closed; one that has sent part of
 * a request is left to finish it and get the draining 503.
 */
function idleConnectionCloser(http: Server): { drain(): void } {
  let draining = false;
  const open = new Set<Socket>();
  http.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  http.on("request", (_request: IncomingMessage, response: ServerResponse) => {
    response.once("finish", () => {
      if (draining) setImmediate(() => http.closeIdleConnections());
    });
  });
  const closeSilent = () => {
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  };
  return {
    drain() {
      draining = true;
      http.closeIdleConnections();
      setTimeout(closeSilent, SILENT_GRACE_MS).unref();
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
  const connections = idleConnectionCloser(server.server);
  server.addHook("preClose", async () => {
    draining = true;
    connections.drain();
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

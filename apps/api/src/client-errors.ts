import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { type RestErrorBody, restError } from "./rest/envelope.ts";

/**
 * Requests that Node's HTTP parser refuses before Fastify sees them (a request line or headers over the size
 * limit, a request not received within the request timeout, bytes that are not HTTP) are answered here, in the
 * same error envelope as every other failure, and the connection is closed.
 */
function bodyFor(code: string | undefined): RestErrorBody {
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return restError("rest_request_timeout");
    case "HPE_HEADER_OVERFLOW":
      return restError("rest_headers_too_large");
    default:
      return restError("rest_bad_request", { reason: "The request is not valid HTTP." });
  }
}

export function writeClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const body = bodyFor(error.code);
  this.log.debug({ err: error }, "client error");
  if (socket.writable) {
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${body.data.status} ${STATUS_CODES[body.data.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `Connection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

import { request } from "node:http";
import { connect } from "node:net";

/**
 * Sends raw bytes on a new connection and resolves with everything the server sends back: until it closes the
 * connection, or, with `ms`, whatever arrived within that time (for answers that keep the connection open).
 */
export function rawExchange(origin: string, bytes: string, ms?: number): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
    });
    socket.on("error", reject);
    if (ms === undefined) {
      socket.on("close", () => resolve(received));
      return;
    }
    setTimeout(() => {
      socket.destroy();
      resolve(received);
    }, ms);
  });
}

/** A GET naming another Host (fetch always sends the URL's own); resolves with the parsed JSON body, typed as `T`. */
export function getWithHost<T = unknown>(origin: string, path: string, host: string): Promise<T> {
  return new Promise((resolve, reject) => {
    request(`${origin}${path}`, { headers: { host } }, (response) => {
      let text = "";
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () => resolve(JSON.parse(text) as T));
    })
      .on("error", reject)
      .end();
  });
}

/** Resolves once nothing listens on the origin's port any more. */
async function notListening(origin: string): Promise<void> {
  const { hostname, port } = new URL(origin);
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = connect(Number(port), hostname);
      probe.on("connect", () => {
        probe.destroy();
        resolve(false);
      });
      probe.on("error", () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A GET begun before the server starts shutting down (so that its connection is not idle) and ended after it has
 * stopped listening: resolves, once the server has closed the connection and stopped, with the answer's status
 * line and headers (lower case) and its body.
 */
export async function getAcrossShutdown(origin: string, path: string, shutDown: () => Promise<unknown>) {
  const { hostname, port, host } = new URL(origin);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.on("connect", resolve));
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk;
  });
  const closedSocket = new Promise((resolve) => socket.on("close", resolve));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\n`);
  const stopped = shutDown();
  await notListening(origin);
  socket.write("\r\n");
  await closedSocket;
  await stopped;
  const [head = "", body = ""] = received.split("\r\n\r\n");
  return { head: head.toLowerCase().split("\r\n"), body };
}

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

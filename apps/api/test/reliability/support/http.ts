import { Agent, request } from "node:http";

/** A request exactly as it goes on the wire: the path is sent as given (bad percent-escapes included). */
export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Text is sent as UTF-8; bytes as they are (invalid UTF-8 included). */
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Sends raw requests to one origin over kept-alive connections (at most `connections` at once), so that
 * thousands of requests cost no connection set-up and the path reaches the server unnormalized.
 */
export function rawClient(origin: string, connections = 32) {
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });

  /**
   * A kept-alive connection that the server has just closed (after a 431, say) fails the next request before the
   * server reads it, and a connection closed by an early answer may fail the write before the answer is read:
   * such a request is sent again on a new connection, up to three times (the race can repeat on a loaded machine).
   */
  async function send(raw: RawRequest, via: Agent | false = agent, tries = 3): Promise<RawResponse> {
    try {
      return await sendOnce(raw, via);
    } catch (error) {
      const { reusedSocket, code } = error as { reusedSocket?: boolean; code?: string };
      const transient = reusedSocket || code === "EPIPE" || code === "ECONNRESET";
      if (transient && tries > 1) return send(raw, false, tries - 1);
      throw error;
    }
  }

  /**
   * A server may answer before it has read the whole body (413, 415, a refused header) and close the connection;
   * the rest of the body then fails to send (EPIPE, ECONNRESET). Once the answer has arrived, that failure is not
   * the request's outcome: the answer is.
   */
  function sendOnce(raw: RawRequest, via: Agent | false): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const body = typeof raw.body === "string" ? Buffer.from(raw.body, "utf8") : raw.body;
      let answered = false;
      const outgoing = request(
        {
          agent: via,
          host: hostname,
          port,
          method: raw.method,
          path: raw.path,
          headers: { ...raw.headers, ...(body ? { "content-length": String(body.length) } : {}) },
        },
        (response) => {
          answered = true;
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
          response.on("error", reject);
          response.on("close", () => {
            if (!response.complete) reject(new Error(`The answer to ${raw.method} ${raw.path} was cut off.`));
          });
        },
      );
      outgoing.on("error", (error) => {
        if (!answered) reject(Object.assign(error, { reusedSocket: outgoing.reusedSocket }));
      });
      outgoing.end(body);
    });
  }

  /**
   * Sends a request for each item, `connections` at a time, and hands each answer to `onResponse` as it arrives.
   * A request is built just before it is sent and dropped once answered, so that thousands of large bodies are
   * never held at once.
   */
  async function sendEach<T>(
    items: readonly T[],
    requestFor: (item: T) => RawRequest,
    onResponse: (item: T, request: RawRequest, response: RawResponse) => void,
  ): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        const raw = requestFor(item);
        onResponse(item, raw, await send(raw));
      }
    };
    await Promise.all(Array.from({ length: connections }, worker));
  }

  return { send, sendEach, close: () => agent.destroy() };
}

export type RawClient = ReturnType<typeof rawClient>;

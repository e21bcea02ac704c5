import { Agent, request as httpRequest } from "node:http";
import type { BenchRequest } from "./load.ts";

/**
 * A steady load: one request every 1/rate seconds, sent whether or not the earlier ones were answered (an open
 * loop), each timed from when it was due, so that a stall of the server shows in the latencies instead of slowing
 * the load down.
 *
 * Not autocannon's `overallRate`: autocannon gives each connection a budget per second and sends it back to back
 * when the second starts (`lib/httpClient.js`, 9.0.0), so 100 req/s over 10 connections arrive as a burst of 100
 * each second, and its coordinated-omission correction then assumes a request was due every millisecond. Both make
 * its p99 a measure of bursts, not of a steady rate.
 */

export interface PacedResult {
  /** Latencies in ms, from when each request was due (or sent, if earlier) to its last byte. */
  latencies: number[];
  /** Answers that were not 2xx (or 304 to a revalidation), and socket errors. */
  failures: number;
}

/** Sockets kept open for the load: enough for every request in flight while the server stalls for a while. */
const MAX_SOCKETS = 256;

function send(agent: Agent, origin: string, request: BenchRequest): Promise<number> {
  const varied = request.next?.();
  const path = varied?.path ?? request.path;
  const body = varied?.body ?? request.body;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      new URL(path, origin),
      { method: request.method, headers: request.headers ?? {}, agent },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const succeeded = (request: BenchRequest, status: number) =>
  (status >= 200 && status < 300) || (status === 304 && request.headers?.["if-none-match"] !== undefined);

export async function pacedLoad(
  origin: string,
  request: BenchRequest,
  rate: number,
  seconds: number,
): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const total = Math.round(rate * seconds);
  const intervalMs = 1000 / rate;
  const started = performance.now();
  const latencies: number[] = [];
  let failures = 0;
  const pending: Promise<void>[] = [];
  try {
    for (let index = 0; index < total; index += 1) {
      const due = started + index * intervalMs;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      // Timed from when it was due when sent late; from when it was sent when the timer let it go a little early.
      const from = Math.min(due, performance.now());
      pending.push(
        send(agent, origin, request).then(
          (status) => {
            latencies.push(performance.now() - from);
            if (!succeeded(request, status)) failures += 1;
          },
          () => {
            failures += 1;
          },
        ),
      );
    }
    await Promise.all(pending);
    return { latencies, failures };
  } finally {
    agent.destroy();
  }
}

/** The value below which `share` of the sorted values lie (nearest rank). */
export function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

import { expect } from "vitest";

/**
 * Whether a request blocks the server, asserted rather than hoped: `/healthz` is polled every 50 ms while the request
 * runs, and the slowest poll is compared with the same server's idle latency measured just before. The threshold is
 * relative to that idle latency (a loaded test machine is slower at everything), with a floor for timer jitter.
 *
 * The server runs in the test's process, so a blocked event loop delays the polls' timers and answers alike: the
 * poll in flight when the loop blocks measures the whole block.
 */
export const POLL_INTERVAL_MS = 50;
const IDLE_POLLS = 10;
/** How many times the idle latency a poll may take while the request runs. */
export const STALL_FACTOR = 20;
/** The smallest threshold, for timer jitter and garbage collection on a busy machine. */
export const STALL_FLOOR_MS = 400;

export interface StallReport<T> {
  answer: T;
  /** The slowest `/healthz` poll while the request ran, in ms. */
  slowestPollMs: number;
  /** The slowest idle poll before it, in ms. */
  idleMs: number;
  /** The most a poll may take: `max(STALL_FACTOR × idleMs, STALL_FLOOR_MS)`. */
  thresholdMs: number;
  polls: number;
  /** How long the request took, in ms. */
  requestMs: number;
}

async function pollOnce(origin: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${origin}/healthz`);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
  return performance.now() - started;
}

async function idleLatency(origin: string): Promise<number> {
  await pollOnce(origin); // opens the connection, which the polls then reuse
  let slowest = 0;
  for (let index = 0; index < IDLE_POLLS; index++) slowest = Math.max(slowest, await pollOnce(origin));
  return slowest;
}

/** Runs `request` against the server at `origin` while polling its `/healthz`, and reports the slowest poll. */
export async function watchHealth<T>(origin: string, request: () => Promise<T>): Promise<StallReport<T>> {
  const idleMs = await idleLatency(origin);
  let running = true;
  let slowestPollMs = 0;
  let polls = 0;
  const poller = (async () => {
    while (running) {
      // A poll's latency counts from when it was due: a timer held back by a blocked loop is a stall too.
      const due = performance.now() + POLL_INTERVAL_MS;
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      const late = Math.max(0, performance.now() - due);
      slowestPollMs = Math.max(slowestPollMs, late + (await pollOnce(origin)));
      polls++;
    }
  })();
  const started = performance.now();
  let answer: T;
  let requestMs: number;
  try {
    answer = await request();
    requestMs = performance.now() - started;
  } finally {
    running = false;
    // The poll in flight when the request ended may be the one that measures the block.
    await poller;
  }
  return {
    answer,
    slowestPollMs,
    idleMs,
    thresholdMs: Math.max(STALL_FACTOR * idleMs, STALL_FLOOR_MS),
    polls,
    requestMs,
  };
}

/** Runs `request` while polling `/healthz` and expects no poll to have waited past the threshold; returns its answer. */
export async function expectNoStall<T>(origin: string, request: () => Promise<T>): Promise<StallReport<T>> {
  const report = await watchHealth(origin, request);
  expect(
    report.slowestPollMs,
    `/healthz waited ${Math.round(report.slowestPollMs)} ms while the request ran ${Math.round(report.requestMs)} ms (idle ${report.idleMs.toFixed(1)} ms, threshold ${Math.round(report.thresholdMs)} ms)`,
  ).toBeLessThan(report.thresholdMs);
  return report;
}

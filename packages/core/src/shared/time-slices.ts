import { setImmediate } from "node:timers/promises";

/**
 * Lets the requests that queued meanwhile run before the next piece of synchronous work: resumes after the event loop
 * has polled for I/O (one `setImmediate` called from the poll phase runs in the same turn's check phase, before any
 * waiting request is read).
 */
export async function yieldToRequests(): Promise<void> {
  await setImmediate();
  await setImmediate();
}

export interface Slices {
  /** Has the current slice run its time? */
  due(): boolean;
  /** Gives the event loop back if the current slice has run its time, and starts the next one. */
  pause(): Promise<void>;
}

/**
 * Time slices of `ms` each, the first starting now: work that is synchronous in pieces it cannot split (a parser, a
 * renderer, on SQLite each statement) gives the event loop back between two pieces once a slice has run its time.
 */
export function slicesOf(ms: number): Slices {
  let started = performance.now();
  const due = () => performance.now() - started >= ms;
  return {
    due,
    async pause() {
      if (!due()) return;
      await yieldToRequests();
      started = performance.now();
    },
  };
}

/**
 * The import's work is synchronous in pieces it cannot split (ical.js, zod, and on SQLite each statement of a
 * transaction: the driver is synchronous), so it runs in time slices: after about `IMPORT_SLICE_MS` of work it
 * gives the event loop back to the requests that queued meanwhile. A slice ends between two pieces, so one piece
 * (one UID of the file, one series written) may run past it.
 */
export const IMPORT_SLICE_MS = 50;

/** Lets the requests that queued meanwhile run before the next piece of synchronous work. */
export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface Slices {
  /** Has the current slice run its time? */
  due(): boolean;
  /** Gives the event loop back if the current slice has run its time, and starts the next one. */
  pause(): Promise<void>;
}

/** Time slices of `ms` each, the first starting now. */
export function slicesOf(ms = IMPORT_SLICE_MS): Slices {
  let started = performance.now();
  const due = () => performance.now() - started >= ms;
  return {
    due,
    async pause() {
      if (!due()) return;
      await yieldToOthers();
      started = performance.now();
    },
  };
}

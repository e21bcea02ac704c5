import { type Slices, slicesOf } from "../shared/time-slices.ts";

/**
 * The import's work is synchronous in pieces it cannot split (ical.js, zod, and on SQLite each statement of a
 * transaction: the driver is synchronous), so it runs in time slices: after about `IMPORT_SLICE_MS` of work it
 * gives the event loop back to the requests that queued meanwhile. A slice ends between two pieces, so one piece
 * (one UID of the file, one series written) may run past it.
 */
export const IMPORT_SLICE_MS = 50;

/** The import's time slices, the first starting now. */
export function importSlices(): Slices {
  return slicesOf(IMPORT_SLICE_MS);
}

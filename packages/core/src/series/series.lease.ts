import type { Db } from "../db/db.ts";
import { acquireLease, releaseLease } from "../db/lease.ts";

/** Takes or renews the series worker's lease (`acquireLease`): one server process of many extends the horizons. */
export function acquireSeriesLease(db: Db, holder: string, ttlMs: number, now = new Date()): Promise<boolean> {
  return acquireLease(db.seriesLease, holder, ttlMs, now);
}

/** Gives the series worker's lease up, so that another process can take it over at once. */
export function releaseSeriesLease(db: Db, holder: string): Promise<void> {
  return releaseLease(db.seriesLease, holder);
}

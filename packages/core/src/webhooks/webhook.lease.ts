import type { Db } from "../db/db.ts";
import { acquireLease, releaseLease } from "../db/lease.ts";

/** Takes or renews the webhook worker's lease (`acquireLease`): one server process of many delivers. */
export function acquireWebhookLease(db: Db, holder: string, ttlMs: number, now = new Date()): Promise<boolean> {
  return acquireLease(db.webhookLease, holder, ttlMs, now);
}

/** Gives the webhook worker's lease up, so that another process can take it over at once. */
export function releaseWebhookLease(db: Db, holder: string): Promise<void> {
  return releaseLease(db.webhookLease, holder);
}

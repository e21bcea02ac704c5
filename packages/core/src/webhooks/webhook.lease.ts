import type { Db } from "../db/db.ts";

/** The id of the single `WebhookLease` row. */
const LEASE = 1;

/**
 * Takes or renews the webhook worker's lease for `holder` until `now + ttlMs`, if nobody else holds an unexpired
 * one: a single conditional update, so of several server processes on one database exactly one wins. Returns
 * whether `holder` now holds it.
 */
export async function acquireWebhookLease(db: Db, holder: string, ttlMs: number, now = new Date()): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const taken = await db.webhookLease.updateMany({
    where: { id: LEASE, OR: [{ holder }, { expiresAt: { lt: now } }] },
    data: { holder, expiresAt },
  });
  if (taken.count === 1) return true;
  if (await db.webhookLease.findUnique({ where: { id: LEASE }, select: { id: true } })) return false;
  try {
    await db.webhookLease.create({ data: { id: LEASE, holder, expiresAt } });
    return true;
  } catch {
    // Another process created the row first: it holds the lease.
    return false;
  }
}

/** Gives the lease up, so that another process can take it over at once. */
export async function releaseWebhookLease(db: Db, holder: string): Promise<void> {
  await db.webhookLease.updateMany({ where: { id: LEASE, holder }, data: { expiresAt: new Date(0) } });
}

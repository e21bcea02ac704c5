import { presentChange } from "../changes/change.present.ts";
import { type ChangeType, changeAction, changeType } from "../changes/change.schemas.ts";
import { readChangeVersion } from "../changes/change-version.ts";
import { anyRow } from "../db/any-row.ts";
import type { Db } from "../db/db.ts";
import { perProvider } from "../db/json-sql.ts";
import type { Change } from "../generated/sqlite/client.ts";
import { wants } from "./webhook.present.ts";

/** The record a change is about, as the REST API shows it to an administrator; null when it is gone. */
export type PresentRecord = (type: ChangeType, id: number) => Promise<unknown>;

/** Changes turned into deliveries per subscription and transaction, at most (a version is never split). */
const BATCH = 500;

/**
 * The outbox rows after `cursor` up to `head`, oldest first, in a batch of whole versions, and the version the
 * batch ends at (where the subscription's cursor moves to).
 */
async function changesAfter(db: Db, cursor: number, head: number): Promise<{ rows: Change[]; upTo: number }> {
  const rows = await db.change.findMany({
    where: { version: { gt: cursor, lte: head } },
    orderBy: [{ version: "asc" }, { type: "asc" }, { recordId: "asc" }],
    take: BATCH + 1,
  });
  const boundary = rows[BATCH]?.version;
  if (boundary === undefined) return { rows, upTo: head };
  const whole = rows.filter((row) => row.version < boundary);
  if (whole.length) return { rows: whole, upTo: boundary - 1 };
  const version = await db.change.findMany({
    where: { version: boundary },
    orderBy: [{ type: "asc" }, { recordId: "asc" }],
  });
  return { rows: version, upTo: boundary };
}

/** The body of a delivery (Standard Webhooks' `type`, `timestamp`, `data`): the change as in the feed, and its record. */
function deliveryBody(row: Change, object: unknown): { eventType: string; body: string } {
  const action = changeAction.parse(row.action);
  const eventType = `${changeType.parse(row.type)}.${action}`;
  const data = { ...presentChange(row, action), object };
  return { eventType, body: JSON.stringify({ type: eventType, timestamp: row.modifiedUtc.toISOString(), data }) };
}

/** Is any subscription active? Without one the worker has nothing to hold a lease for or to queue. */
export function hasActiveSubscriptions(db: Db): Promise<boolean> {
  return anyRow(db, ACTIVE_SUBSCRIPTION, []);
}

const ACTIVE_SUBSCRIPTION = perProvider(() => `SELECT 1 FROM "WebhookSubscription" WHERE "active"`);

/**
 * Queues the deliveries of the committed changes that each active subscription has not been handed yet: the
 * `Change` outbox, written in every write's own transaction, is the durable queue; a subscription's `cursor` says
 * how far it has been turned into delivery rows, and moves in the transaction that writes them, so a crash at any
 * point neither loses nor repeats a delivery. Every version up to the head has committed (version order is commit
 * order), so nothing can still appear behind a cursor. Returns how many deliveries were queued.
 */
export async function queueDeliveries(db: Db, presentRecord: PresentRecord, now = new Date()): Promise<number> {
  const head = await readChangeVersion(db);
  const subscriptions = await db.webhookSubscription.findMany({
    where: { active: true, cursor: { lt: head } },
    orderBy: { id: "asc" },
  });
  const objects = new Map<string, Promise<unknown>>();
  const objectOf = (row: Change) => {
    if (row.action === "deleted") return Promise.resolve(null);
    const key = `${row.type}:${row.recordId}`;
    const known = objects.get(key) ?? presentRecord(changeType.parse(row.type), row.recordId);
    objects.set(key, known);
    return known;
  };
  let queued = 0;
  for (const subscription of subscriptions) {
    const { rows, upTo } = await changesAfter(db, subscription.cursor, head);
    const wanted = rows.filter((row) => wants(subscription, row.type, row.action));
    const deliveries = await Promise.all(
      wanted.map(async (row) => ({
        subscriptionId: subscription.id,
        messageId: `msg_${subscription.id}_${row.version}_${row.type}_${row.recordId}`,
        version: row.version,
        nextAttemptAt: now,
        ...deliveryBody(row, await objectOf(row)),
      })),
    );
    queued += await db.$transaction(async (tx) => {
      // Another worker (one whose lease ran out meanwhile) may have moved the cursor: then it queued these.
      const moved = await tx.webhookSubscription.updateMany({
        where: { id: subscription.id, cursor: subscription.cursor },
        data: { cursor: upTo },
      });
      if (moved.count === 0 || deliveries.length === 0) return 0;
      return (await tx.webhookDelivery.createMany({ data: deliveries })).count;
    });
  }
  return queued;
}

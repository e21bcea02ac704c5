import { anyRow } from "../db/any-row.ts";
import { type Db, readerOf } from "../db/db.ts";
import { instantParam, perProvider } from "../db/json-sql.ts";
import { retryDelay } from "./webhook.retry.ts";

/** A delivery whose turn has come: the oldest pending one of an active subscription, due now. */
export interface DueDelivery {
  id: number;
  subscriptionId: number;
  messageId: string;
  body: string;
  attemptCount: number;
  createdAt: Date;
  url: string;
  secret: string;
}

/** What one attempt gave. */
export interface AttemptOutcome {
  succeeded: boolean;
  responseStatus: number | null;
  durationMs: number;
  error: string;
}

/** How long failures are retried and tolerated. */
export interface RetryPolicy {
  /** The first retry comes within this many milliseconds; each next one waits about twice as long. */
  retryBaseMs: number;
  /** A delivery failing this long after it was queued is given up (`failed`). */
  retryForMs: number;
  /** A subscription whose deliveries have failed this long without a success is disabled. */
  disableAfterMs: number;
}

/**
 * The next delivery of each active subscription, if it is due: deliveries of one subscription go one at a time,
 * in the order they were queued (which is version order), so a delivery waiting for a retry holds back the later
 * ones of its subscription.
 */
export async function dueDeliveries(db: Db, now = new Date()): Promise<DueDelivery[]> {
  const subscriptions = await db.webhookSubscription.findMany({
    where: { active: true },
    select: { id: true, url: true, secret: true },
  });
  if (!subscriptions.length) return [];
  const heads = await db.webhookDelivery.groupBy({
    by: ["subscriptionId"],
    where: { status: "pending", subscriptionId: { in: subscriptions.map(({ id }) => id) } },
    _min: { id: true },
  });
  const ids = heads.flatMap((head) => (head._min.id === null ? [] : [head._min.id]));
  if (!ids.length) return [];
  const rows = await db.webhookDelivery.findMany({
    where: { id: { in: ids }, nextAttemptAt: { lte: now } },
    orderBy: { id: "asc" },
  });
  const byId = new Map(subscriptions.map((subscription) => [subscription.id, subscription]));
  return rows.flatMap((row) => {
    const subscription = byId.get(row.subscriptionId);
    if (!subscription) return [];
    const { id, subscriptionId, messageId, body, attemptCount, createdAt } = row;
    return [
      {
        id,
        subscriptionId,
        messageId,
        body,
        attemptCount,
        createdAt,
        url: subscription.url,
        secret: subscription.secret,
      },
    ];
  });
}

/** A period in the largest whole unit that fits: "3 days", "12 hours", "90 seconds". */
function period(ms: number): string {
  const [size, unit] =
    ms >= 86_400_000 ? [86_400_000, "day"] : ms >= 3_600_000 ? [3_600_000, "hour"] : [1_000, "second"];
  const count = Math.round(ms / (size as number));
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/**
 * Writes an attempt and its consequences in one transaction: a success completes the delivery and clears the
 * subscription's failure; a failure schedules a retry (with backoff), or gives the delivery up past the retry
 * period, and disables the subscription once it has failed for the disable period. A delivery deleted or completed
 * meanwhile (its subscription was deleted) is left alone.
 */
export async function recordAttempt(
  db: Db,
  delivery: DueDelivery,
  outcome: AttemptOutcome,
  policy: RetryPolicy,
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    const current = await tx.webhookDelivery.findUnique({ where: { id: delivery.id }, select: { status: true } });
    if (current?.status !== "pending") return;
    await tx.webhookAttempt.create({
      data: { deliveryId: delivery.id, subscriptionId: delivery.subscriptionId, attemptedAt: now, ...outcome },
    });
    const attemptCount = delivery.attemptCount + 1;
    if (outcome.succeeded) {
      await tx.webhookDelivery.update({
        where: { id: delivery.id },
        data: { status: "delivered", attemptCount, completedAt: now },
      });
      await tx.webhookSubscription.update({ where: { id: delivery.subscriptionId }, data: { failingSince: null } });
      return;
    }
    const givenUp = now.getTime() - delivery.createdAt.getTime() >= policy.retryForMs;
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: givenUp
        ? { status: "failed", attemptCount, completedAt: now }
        : { attemptCount, nextAttemptAt: new Date(now.getTime() + retryDelay(attemptCount, policy.retryBaseMs)) },
    });
    const subscription = await tx.webhookSubscription.findUnique({
      where: { id: delivery.subscriptionId },
      select: { failingSince: true },
    });
    const failingSince = subscription?.failingSince ?? now;
    const disable = now.getTime() - failingSince.getTime() >= policy.disableAfterMs;
    await tx.webhookSubscription.update({
      where: { id: delivery.subscriptionId },
      data: {
        failingSince,
        ...(disable
          ? { active: false, disabledReason: `Its deliveries failed for ${period(policy.disableAfterMs)}.` }
          : {}),
      },
    });
  });
}

const COMPLETED_BEFORE = perProvider(
  ({ param }) =>
    `SELECT 1 FROM "WebhookDelivery" WHERE "status" IN ('delivered', 'failed') AND "completedAt" < ${param(1)}`,
);

/** Deletes deliveries (and their attempts) that were completed before `before`. */
export async function pruneDeliveries(db: Db, before: Date): Promise<number> {
  const provider = readerOf(db).provider;
  if (!(await anyRow(db, COMPLETED_BEFORE, [instantParam(provider, before)]))) return 0;
  const { count } = await db.webhookDelivery.deleteMany({
    where: { status: { in: ["delivered", "failed"] }, completedAt: { lt: before } },
  });
  return count;
}

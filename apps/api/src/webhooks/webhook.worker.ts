import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  acquireWebhookLease,
  type Db,
  type DbHandle,
  type DueDelivery,
  dueDeliveries,
  hasActiveSubscriptions,
  type PresentRecord,
  pruneChanges,
  pruneDeliveries,
  queueDeliveries,
  type RetryPolicy,
  recordAttempt,
  releaseWebhookLease,
  type WebhookTargetPolicy,
} from "@calendar/core";
import type { FastifyBaseLogger } from "fastify";
import { sendWebhook } from "./webhook.send.ts";

/** The worker's settings (see the `CALENDAR_WEBHOOKS_*` variables). */
export interface WebhookWorkerOptions extends RetryPolicy, WebhookTargetPolicy {
  /** Milliseconds between two looks for new changes and due retries. */
  pollMs: number;
  /** Milliseconds a receiver has to answer. */
  timeoutMs: number;
  /** Days the change feed keeps its tombstones (and completed deliveries are kept). */
  retentionDays: number;
  /** Milliseconds a shutdown waits for deliveries in flight. */
  shutdownGraceMs: number;
}

export interface WebhookWorker {
  /** Stops looking for work and waits up to the grace period for the deliveries in flight. */
  stop(): Promise<void>;
}

/** How often old changes and completed deliveries are pruned. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Rounds of sending per look, so that a backlog drains without waiting a poll interval per delivery. */
const MAX_ROUNDS = 100;

/** Sends one delivery and records the attempt; answers whether the receiver took it. */
async function deliver(db: Db, delivery: DueDelivery, options: WebhookWorkerOptions, log: FastifyBaseLogger) {
  const outcome = await sendWebhook(delivery, {
    policy: { allowInsecure: options.allowInsecure, ports: options.ports },
    timeoutMs: options.timeoutMs,
  });
  await recordAttempt(db, delivery, outcome, options);
  if (!outcome.succeeded) {
    log.warn(
      { webhook: delivery.subscriptionId, delivery: delivery.messageId, status: outcome.responseStatus },
      `webhook delivery failed: ${outcome.error}`,
    );
  }
  return outcome.succeeded;
}

/**
 * The webhook worker of one server process. Of all processes on the database, only the holder of the lease works,
 * and only while a subscription is active (it renews the lease every round; a crashed holder's lease runs out and
 * another process takes over). Each look: prune (hourly), turn new committed changes into deliveries, then send the
 * due ones, one per subscription at a time, until none is due. A delivery in flight when the process dies stays
 * pending and is sent again: at least once.
 */
export function startWebhookWorker(
  handle: DbHandle,
  presentRecord: PresentRecord,
  options: WebhookWorkerOptions,
  log: FastifyBaseLogger,
): WebhookWorker {
  const { db } = handle;
  const holder = randomUUID();
  const leaseMs = Math.max(30_000, options.timeoutMs * 3);
  let stopped = false;
  let nextPruneAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  // Releasing a lease never taken would change nothing, and would load Prisma's query compiler on the way out.
  let everHeld = false;
  const holdsLease = async () => {
    const held = await acquireWebhookLease(db, holder, leaseMs);
    everHeld ||= held;
    return held;
  };

  async function look(): Promise<void> {
    // Pruning is idempotent, so every process may do it; the rest is the lease holder's, and only while there is a
    // subscription: a calendar without webhooks pays one read per poll, not a write (on SQLite, every process's
    // lease write would compete with the API's writes for the file).
    if (Date.now() >= nextPruneAt) {
      nextPruneAt = Date.now() + PRUNE_EVERY_MS;
      await pruneChanges(db, options.retentionDays);
      await pruneDeliveries(db, new Date(Date.now() - options.retentionDays * 86_400_000));
    }
    if (!(await hasActiveSubscriptions(db)) || !(await holdsLease())) return;
    await queueDeliveries(db, presentRecord);
    for (let round = 0; round < MAX_ROUNDS && !stopped; round++) {
      const due = await dueDeliveries(db);
      if (!due.length) return;
      const delivered = await Promise.all(due.map((delivery) => deliver(db, delivery, options, log)));
      if (!delivered.some(Boolean) || !(await holdsLease())) return;
    }
  }

  const loop = async () => {
    running = look().catch((error: unknown) => log.error({ err: error }, "webhook worker failed; retrying"));
    await running;
    running = undefined;
    if (!stopped) timer = setTimeout(loop, options.pollMs);
  };
  timer = setTimeout(loop, 0);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (running) await Promise.race([running, sleep(options.shutdownGraceMs)]);
      if (everHeld) await releaseWebhookLease(db, holder).catch(() => undefined);
    },
  };
}

import { beforeEach, describe, expect, it } from "vitest";
import { PROVIDERS, useTestDatabase } from "../testing/index.ts";
import { pruneDeliveries } from "./webhook.deliveries.ts";

const CUTOFF = new Date("2031-01-01T00:00:00Z");
const BEFORE = new Date("2030-12-31T23:59:59.999Z");

/** [message id, status, completed at]. */
const DELIVERIES = [
  ["msg_delivered_before", "delivered", BEFORE],
  ["msg_failed_before", "failed", BEFORE],
  ["msg_delivered_at_cutoff", "delivered", CUTOFF],
  ["msg_pending", "pending", null],
] as const;

describe.each(PROVIDERS)("pruning webhook deliveries (%s)", (provider) => {
  const database = useTestDatabase(provider);
  const db = () => database.current.handle.db;
  const left = async () =>
    (await db().webhookDelivery.findMany({ orderBy: { id: "asc" }, select: { messageId: true } })).map(
      (row) => row.messageId,
    );

  beforeEach(async () => {
    await db().webhookSubscription.deleteMany();
    const subscription = await db().webhookSubscription.create({
      data: { url: "https://example.org/hook", secret: "whsec_test", cursor: 0 },
    });
    await db().webhookDelivery.createMany({
      data: DELIVERIES.map(([messageId, status, completedAt]) => ({
        subscriptionId: subscription.id,
        messageId,
        eventType: "event.created",
        version: 1,
        body: "{}",
        status,
        nextAttemptAt: BEFORE,
        completedAt,
      })),
    });
  });

  it("deletes the deliveries completed before the cutoff, and nothing when none was", async () => {
    expect(await pruneDeliveries(db(), CUTOFF)).toBe(2);
    expect(await left()).toEqual(["msg_delivered_at_cutoff", "msg_pending"]);
    expect(await pruneDeliveries(db(), CUTOFF)).toBe(0);
    expect(await left()).toEqual(["msg_delivered_at_cutoff", "msg_pending"]);
  });
});

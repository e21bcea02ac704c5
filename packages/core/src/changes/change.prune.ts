import type { Db } from "../db/db.ts";

/** Changes are pruned this long after the retention, so that a change committed just before a token is never gone. */
const MARGIN_MS = 60 * 60 * 1000;

/**
 * Removes the feed's outbox rows that no sync token still accepted (`retentionDays`) and no active webhook
 * subscription (its cursor) needs: every change of a record but its latest, and every change of a deleted record
 * (its tombstone), among those older than the retention. The latest change of a record that still exists stays,
 * since the feed reads a record's state at a token from it. Returns how many rows went.
 */
export async function pruneChanges(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000 - MARGIN_MS);
  const old = await db.change.aggregate({ where: { modifiedUtc: { lt: cutoff } }, _max: { version: true } });
  const undelivered = await db.webhookSubscription.aggregate({ where: { active: true }, _min: { cursor: true } });
  const bound = Math.min(old._max.version ?? 0, undelivered._min.cursor ?? Number.POSITIVE_INFINITY);
  if (bound <= 0) return 0;
  return db.$executeRaw`
    DELETE FROM "Change" WHERE "version" <= ${bound} AND (
      EXISTS (
        SELECT 1 FROM "Change" AS "later"
        WHERE "later"."type" = "Change"."type" AND "later"."recordId" = "Change"."recordId"
          AND "later"."version" > "Change"."version" AND "later"."version" <= ${bound}
      )
      OR EXISTS (
        SELECT 1 FROM "Change" AS "gone"
        WHERE "gone"."type" = "Change"."type" AND "gone"."recordId" = "Change"."recordId"
          AND "gone"."action" = 'deleted' AND "gone"."version" <= ${bound}
      )
    )`;
}

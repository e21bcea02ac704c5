import { type Db, readerOf } from "../db/db.ts";
import { instantParam, type JsonSql, perProvider } from "../db/json-sql.ts";

/** Changes are pruned this long after the retention, so that a change committed just before a token is never gone. */
const MARGIN_MS = 60 * 60 * 1000;

function boundStatement({ object, param, text }: JsonSql): string {
  return `SELECT ${text(
    object([
      // SQLite finds the maximum by walking the versions down to the first old one, which reads every change made
      // since the cutoff (a 100,000-event database seeded or imported today: 0.6 s, +10 MB of page cache at start);
      // the index on modifiedUtc says first, in one step, whether there is any old change.
      [
        "old",
        `(CASE WHEN EXISTS (SELECT 1 FROM "Change" WHERE "modifiedUtc" < ${param(1)})
          THEN (SELECT MAX("version") FROM "Change" WHERE "modifiedUtc" < ${param(2)}) END)`,
      ],
      ["undelivered", `(SELECT MIN("cursor") FROM "WebhookSubscription" WHERE "active")`],
    ]),
  )}`;
}

const BOUND_SQL = perProvider(boundStatement);

/**
 * The last version pruning may reach: that of the newest change older than `cutoff`, and no further than the
 * cursor of an active subscription. Read on the driver, since most looks of the worker find nothing to prune.
 */
async function pruneBound(db: Db, cutoff: Date): Promise<number> {
  const reader = readerOf(db);
  const before = instantParam(reader.provider, cutoff);
  const text = await reader.json(BOUND_SQL[reader.provider], [before, before]);
  const { old, undelivered } = JSON.parse(text ?? "{}") as { old: number | null; undelivered: number | null };
  return Math.min(old ?? 0, undelivered ?? Number.POSITIVE_INFINITY);
}

/**
 * Removes the feed's outbox rows that no sync token still accepted (`retentionDays`) and no active webhook
 * subscription (its cursor) needs: every change of a record but its latest, and every change of a deleted record
 * (its tombstone), among those older than the retention. The latest change of a record that still exists stays,
 * since the feed reads a record's state at a token from it. Returns how many rows went.
 */
export async function pruneChanges(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000 - MARGIN_MS);
  const bound = await pruneBound(db, cutoff);
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

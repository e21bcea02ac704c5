import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import { stampsAt } from "../shared/dates.ts";
import { countedLinksOf, EVENT_TERM_LINKS, moveTermCounts } from "../terms/term.counts.ts";

/**
 * Occurrences of a series moved to the trash as `DELETE /events/{id}` moves one (docs/behaviour.md, "Deleting"):
 * out of their translation groups, out of the term counts, one change each; those already in the trash are left.
 * Returns the ids trashed.
 */
export async function trashOccurrences(tx: Tx, ids: readonly number[], siteZone: string, now: Date): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx.event.findMany({
    where: { id: { in: [...ids] }, status: { not: "trash" } },
    include: EVENT_TERM_LINKS,
  });
  if (rows.length === 0) return [];
  const stamp = stampsAt(now, siteZone);
  await tx.event.updateMany({
    where: { id: { in: rows.map((row) => row.id) } },
    data: { status: "trash", translationGroup: null, modified: stamp.local, modifiedUtc: stamp.utc },
  });
  for (const row of rows) await moveTermCounts(tx, countedLinksOf(row), undefined);
  await recordChanges(
    tx,
    rows.map((row) => ({
      type: "event",
      id: row.id,
      action: "trashed",
      language: row.language,
      status: "trash",
      password: row.password,
      authorId: row.authorId,
    })),
  );
  return rows.map((row) => row.id);
}

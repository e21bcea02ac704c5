import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import { inBatches } from "../shared/bulk-insert.ts";
import { stampsAt } from "../shared/dates.ts";
import { countedLinksOf, EVENT_TERM_LINKS, moveTermCountsOfMany } from "../terms/term.counts.ts";

type TermLinkedEvent = Prisma.EventGetPayload<{ include: typeof EVENT_TERM_LINKS }>;

/**
 * The occurrences trashed or deleted no longer count for their terms, and each is one change (`status` as the change
 * shows it: the trash, or the status the deleted event had). Returns their ids.
 */
async function leaveOccurrences(
  tx: Tx,
  rows: readonly TermLinkedEvent[],
  action: "trashed" | "deleted",
): Promise<number[]> {
  if (rows.length === 0) return [];
  await moveTermCountsOfMany(
    tx,
    rows.map((row) => ({ before: countedLinksOf(row), after: undefined })),
  );
  await recordChanges(
    tx,
    rows.map((row) => ({
      type: "event",
      id: row.id,
      action,
      language: row.language,
      status: action === "trashed" ? "trash" : row.status,
      password: row.password,
      authorId: row.authorId,
    })),
  );
  return rows.map((row) => row.id);
}

/**
 * Occurrences of a series moved to the trash as `DELETE /events/{id}` moves one (docs/behaviour.md, "Deleting"):
 * out of their translation groups, out of the term counts, one change each; those already in the trash are left.
 * In batches that give the event loop back; the changes share one version. Returns the ids trashed.
 */
export async function trashOccurrences(tx: Tx, ids: readonly number[], siteZone: string, now: Date): Promise<number[]> {
  const stamp = stampsAt(now, siteZone);
  const rows: TermLinkedEvent[] = [];
  await inBatches(ids, async (batch) => {
    const read = await tx.event.findMany({
      where: { id: { in: [...batch] }, status: { not: "trash" } },
      include: EVENT_TERM_LINKS,
    });
    if (read.length === 0) return;
    await tx.event.updateMany({
      where: { id: { in: read.map((row) => row.id) } },
      data: { status: "trash", translationGroup: null, modified: stamp.local, modifiedUtc: stamp.utc },
    });
    rows.push(...read);
  });
  return leaveOccurrences(tx, rows, "trashed");
}

/**
 * Occurrences of a series deleted as `DELETE /events/{id}?force=true` deletes one, with their links: out of the
 * term counts, one change each. In batches that give the event loop back; the changes share one version. Returns
 * the ids deleted.
 */
export async function deleteOccurrences(tx: Tx, ids: readonly number[]): Promise<number[]> {
  const rows: TermLinkedEvent[] = [];
  await inBatches(ids, async (batch) => {
    const read = await tx.event.findMany({ where: { id: { in: [...batch] } }, include: EVENT_TERM_LINKS });
    await tx.event.deleteMany({ where: { id: { in: read.map((row) => row.id) } } });
    rows.push(...read);
  });
  return leaveOccurrences(tx, rows, "deleted");
}

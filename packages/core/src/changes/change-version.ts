import type { Db, Tx } from "../db/db.ts";

/** The id of the single `ChangeVersion` row (written by its migration). */
const ROW = { id: 1 } as const;

/** The calendar change version: how many write transactions have committed. One primary-key read. */
export async function readChangeVersion(db: Db): Promise<number> {
  const row = await db.changeVersion.findUnique({ where: ROW, select: { version: true } });
  return row?.version ?? 0;
}

/**
 * Advances the change version by one inside a write's own transaction and returns the new version. Call it last,
 * once per transaction: on PostgreSQL the row lock it takes is held until the commit, so a concurrent writer gets
 * the next version only after this one committed (version order is commit order), and holding it only at the end
 * keeps writers from queueing on it for the whole transaction. A rolled-back write leaves the version as it was.
 */
export async function advanceChangeVersion(tx: Tx): Promise<number> {
  const row = await tx.changeVersion.update({
    where: ROW,
    data: { version: { increment: 1 } },
    select: { version: true },
  });
  return row.version;
}

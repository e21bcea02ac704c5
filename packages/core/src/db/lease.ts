/**
 * A one-row lease (`WebhookLease`, `SeriesLease`): of several server processes on one database, only the holder of
 * an unexpired lease does the work it guards.
 */
export interface LeaseTable {
  updateMany(args: {
    where: { id: number; holder?: string; OR?: [{ holder: string }, { expiresAt: { lt: Date } }] };
    data: { holder: string; expiresAt: Date };
  }): PromiseLike<{ count: number }>;
  findUnique(args: { where: { id: number }; select: { id: true } }): PromiseLike<{ id: number } | null>;
  create(args: { data: { id: number; holder: string; expiresAt: Date } }): PromiseLike<unknown>;
}

/** The id of a lease table's single row. */
const LEASE = 1;

/**
 * Takes or renews the lease for `holder` until `now + ttlMs`, if nobody else holds an unexpired one: a single
 * conditional update, so of several processes exactly one wins. Returns whether `holder` now holds it.
 */
export async function acquireLease(
  table: LeaseTable,
  holder: string,
  ttlMs: number,
  now = new Date(),
): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const taken = await table.updateMany({
    where: { id: LEASE, OR: [{ holder }, { expiresAt: { lt: now } }] },
    data: { holder, expiresAt },
  });
  if (taken.count === 1) return true;
  if (await table.findUnique({ where: { id: LEASE }, select: { id: true } })) return false;
  try {
    await table.create({ data: { id: LEASE, holder, expiresAt } });
    return true;
  } catch {
    // Another process created the row first: it holds the lease.
    return false;
  }
}

/** Gives the lease up, so that another process can take it over at once. */
export async function releaseLease(table: Pick<LeaseTable, "updateMany">, holder: string): Promise<void> {
  await table.updateMany({ where: { id: LEASE, holder }, data: { holder, expiresAt: new Date(0) } });
}

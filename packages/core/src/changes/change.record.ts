import { AsyncLocalStorage } from "node:async_hooks";
import type { Tx } from "../db/db.ts";
import { domainError } from "../errors.ts";
import { insertRows } from "../shared/bulk-insert.ts";
import type { ChangeAction, ChangeType } from "./change.schemas.ts";
import { advanceChangeVersion } from "./change-version.ts";

/** A record a write changed, with what decides who may see it afterwards. */
export interface RecordChange {
  type: ChangeType;
  id: number;
  action: ChangeAction;
  language: string;
  /** Terms have no status: "publish". */
  status: string;
  password?: string;
  authorId?: number | null;
}

/** A write's precondition: the record has not changed since the change version the caller's copy was checked at. */
export interface UnchangedSince {
  type: ChangeType;
  id: number;
  version: number;
}

export const preconditionFailed = () => domainError("rest_precondition_failed");

const expectedUnchanged = new AsyncLocalStorage<readonly UnchangedSince[]>();

/**
 * Runs `work` (a procedure) with preconditions on its writes: every write it ends with `recordChanges` refuses with
 * 412 `rest_precondition_failed`, inside its own transaction, if it changes one of these records and another write
 * changed it after the given version.
 */
export function withUnchangedRecords<T>(records: readonly UnchangedSince[], work: () => T): T {
  return expectedUnchanged.run(records, work);
}

async function refuseChangedSince(tx: Tx, records: readonly UnchangedSince[]): Promise<void> {
  const changed = await tx.change.findFirst({
    where: { OR: records.map(({ type, id, version }) => ({ type, recordId: id, version: { gt: version } })) },
    select: { version: true },
  });
  if (changed) throw preconditionFailed();
}

/**
 * Ends a write: advances the change version and records the changed records under it (the feed's outbox), in the
 * write's own transaction, so the feed shows exactly the writes that committed. A record written twice by one
 * write keeps its last change. Returns the version.
 *
 * A write run `withUnchangedRecords` is refused (412, rolled back) when a record it changes was changed by
 * another write since the version its precondition was checked at. The check follows the version's advance, whose
 * row lock orders the writers: under PostgreSQL's read committed the check's statement starts once the lock is
 * granted and sees every write committed before; under serializable a write committed meanwhile aborts this one,
 * which runs again and then sees it; SQLite writes one at a time.
 */
export async function recordChanges(tx: Tx, changes: readonly RecordChange[]): Promise<number> {
  const version = await advanceChangeVersion(tx);
  const latest = new Map(changes.map((change) => [`${change.type}:${change.id}`, change]));
  const guarded = expectedUnchanged.getStore()?.filter(({ type, id }) => latest.has(`${type}:${id}`)) ?? [];
  if (guarded.length > 0) await refuseChangedSince(tx, guarded);
  if (latest.size > 0) {
    const now = new Date();
    // Multi-row statements rather than `createMany`, which prepares each row through Prisma's query compiler: a series
    // write records hundreds of changes at once.
    await insertRows(
      tx,
      "Change",
      [...latest.values()].map((change) => ({
        version,
        type: change.type,
        recordId: change.id,
        action: change.action,
        language: change.language,
        status: change.status,
        protected: (change.password ?? "") !== "",
        authorId: change.authorId ?? null,
        modifiedUtc: now,
      })),
    );
  }
  return version;
}

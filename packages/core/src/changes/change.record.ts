import type { Tx } from "../db/db.ts";
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

/**
 * Ends a write: advances the change version and records the changed records under it (the feed's outbox), in the
 * write's own transaction, so the feed shows exactly the writes that committed. A record written twice by one
 * write keeps its last change. Returns the version.
 */
export async function recordChanges(tx: Tx, changes: readonly RecordChange[]): Promise<number> {
  const version = await advanceChangeVersion(tx);
  const latest = new Map(changes.map((change) => [`${change.type}:${change.id}`, change]));
  if (latest.size > 0) {
    const now = new Date();
    await tx.change.createMany({
      data: [...latest.values()].map((change) => ({
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
    });
  }
  return version;
}

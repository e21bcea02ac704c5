import type { Db, Tx } from "../db/db.ts";
import { domainError } from "../errors.ts";

/** Each round of a clash lets at least one writer through; the pause between attempts spreads the others out. */
const MAX_ATTEMPTS = 20;

/**
 * Under load a write may wait for a pooled connection (PostgreSQL: 10 by default) longer than Prisma's 2 s
 * default, and a write that retries its clashes may run longer than the default 5 s.
 */
export const TIMING = { maxWait: 10_000, timeout: 15_000 } as const;

/**
 * Milliseconds a write of many events may run (a series' occurrences): written in batches that give the event loop
 * back, it takes longer than one in one piece, and on a loaded machine longer still.
 */
export const MANY_EVENTS_TIMEOUT_MS = 60_000;

/**
 * Prisma's codes for what a concurrent write causes: a unique violation (it took the slug this one chose), a row
 * this one links to or changes deleted meanwhile (a foreign key, a missing row), a serialization failure.
 */
const RACE_CODES = new Set(["P2002", "P2003", "P2025", "P2034"]);

/** Prisma's code of a failed query (`P2025`, …), if the error has one. */
export function prismaCodeOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

/** Did a concurrent write make this one fail? (Running it again sees that write.) */
export function isRace(error: unknown): boolean {
  return isWriteConflict(error) || RACE_CODES.has(prismaCodeOf(error) ?? "");
}

/**
 * A serialization failure or deadlock: a concurrent transaction read or wrote what this one did. Prisma reports
 * it as P2034 from a query, and as the driver adapter's `TransactionWriteConflict` from the commit.
 */
function isWriteConflict(error: unknown): boolean {
  if (prismaCodeOf(error) === "P2034") return true;
  if (typeof error !== "object" || error === null) return false;
  const cause = (error as { name?: unknown; cause?: { kind?: unknown } }).cause;
  return (error as { name?: unknown }).name === "DriverAdapterError" && cause?.kind === "TransactionWriteConflict";
}

/** A random pause that grows with the attempt (up to ~0.3 s), so that clashing writers spread out. */
export function pauseBefore(attempt: number): Promise<void> {
  const ceiling = 5 * 2 ** Math.min(attempt, 6);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

/** The queue key every serializable write of this process shares (see `runWrite`). */
const SERIALIZABLE_WRITES = "serializable writes";

/** The writes of this process waiting for each other, per database and key. */
const queues = new WeakMap<Db, Map<string, Promise<unknown>>>();

/** Runs `work` after every earlier write of the same key (of this database, in this process) has settled. */
async function inQueue<T>(db: Db, key: string, work: () => Promise<T>): Promise<T> {
  const byKey = queues.get(db) ?? new Map<string, Promise<unknown>>();
  queues.set(db, byKey);
  const turn = (byKey.get(key) ?? Promise.resolve()).then(work, work);
  const settled = turn.catch(() => undefined);
  byKey.set(key, settled);
  try {
    return await turn;
  } finally {
    if (byKey.get(key) === settled) byKey.delete(key);
  }
}

export interface WriteOptions {
  /**
   * Serializable isolation, for writes whose checks have no unique index behind them (a duplicate venue, the
   * current state of an event being updated): a concurrent write that invalidates them aborts one of the two.
   */
  serializable?: boolean;
  /**
   * What writes that are sure to clash (the same new slug, the same venue name, the same event) clash over: within
   * this process they wait for each other instead of aborting each other, which keeps a burst of hundreds of them
   * fast and free of conflicts.
   */
  queueKey?: string;
  /** Milliseconds the transaction may run, for writes much larger than a request's (a bulk creation). */
  timeout?: number;
}

async function withRetries<T>(db: Db, work: (tx: Tx) => Promise<T>, options: WriteOptions): Promise<T> {
  const timing = { ...TIMING, timeout: options.timeout ?? TIMING.timeout };
  const transactionOptions = options.serializable ? { ...timing, isolationLevel: "Serializable" as const } : timing;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(work, transactionOptions);
    } catch (error) {
      if (!isRace(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw domainError("rest_conflict");
      }
      await pauseBefore(attempt);
    }
  }
}

/**
 * Runs a write in one transaction. When a concurrent write got in between its checks and its writes (took the
 * slug it chose, deleted a record it links to or changes, or conflicts with it; see `serializable`), the whole
 * transaction runs again and sees that write: it then succeeds or answers as it should (a 400 for a record now
 * gone); only repeated clashes give 409. SQLite runs one write at a time anyway.
 */
export function runWrite<T>(db: Db, work: (tx: Tx) => Promise<T>, options: WriteOptions = {}): Promise<T> {
  const run = () => withRetries(db, work, options);
  // Every write advances the one change-version row, so two serializable writes running at once always clash on
  // it (PostgreSQL aborts the later one): within this process they take turns instead, whatever else they touch.
  const key = options.serializable ? SERIALIZABLE_WRITES : options.queueKey;
  return key === undefined ? run() : inQueue(db, key, run);
}

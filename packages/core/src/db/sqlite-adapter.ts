import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";

type Adapter = Awaited<ReturnType<PrismaBetterSqlite3["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Query = Parameters<Adapter["queryRaw"]>[0];

/**
 * Values one statement may bind, on either database: SQLite's limit since 3.32 (better-sqlite3 builds it with the
 * default) and the one Prisma applies to PostgreSQL.
 */
export const MAX_BIND_VALUES = 32_766;

/**
 * SQLite's `synchronous` in WAL mode: `full` syncs the log on every commit, so an acknowledged write survives a power
 * cut; `normal` (better-sqlite3's build default) syncs only at checkpoints and may lose the last commits.
 */
export type SqliteSynchronous = "full" | "normal";

/** Turns taken one after the other: each `take` resolves once every earlier turn has been released. */
class Turns {
  private last: Promise<void> = Promise.resolve();

  async take(): Promise<() => void> {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.last;
    this.last = previous.then(() => released);
    await previous;
    return release;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.take();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/** Statements that only read (Prisma's reads are one `SELECT` each); anything else may write. */
function onlyReads(query: Query): boolean {
  return /^\s*SELECT\b/i.test(query.sql);
}

/** A transaction that ends its turn once it commits or rolls back, whichever Prisma calls. */
function endingTurn(transaction: Transaction, release: () => void): Transaction {
  const commit = transaction.commit.bind(transaction);
  const rollback = transaction.rollback.bind(transaction);
  return Object.assign(transaction, {
    commit: () => commit().finally(release),
    rollback: () => rollback().finally(release),
  });
}

/**
 * The better-sqlite3 adapter with a connection for reads beside the one for writes. The stock adapter runs every
 * statement on one connection, so a statement outside a transaction ran inside any interactive transaction open
 * on it: a read saw its uncommitted rows (an answer, a cached answer, an ETag or a webhook payload could carry
 * data that was then rolled back), and a write became part of it. Here reads outside transactions run on a
 * `query_only` connection of their own, which in WAL mode sees the last committed state and never waits for the
 * writer, and writes outside transactions wait for the open transaction to end. It also reports SQLite's real
 * limit of bound values: without it Prisma assumes SQLite's old limit of 999 and refuses (P2029) a statement with a
 * longer `IN` list, such as a list's events near a point.
 */
export class SqliteAdapterFactory extends PrismaBetterSqlite3 {
  constructor(
    config: ConstructorParameters<typeof PrismaBetterSqlite3>[0],
    private readonly synchronous: SqliteSynchronous,
  ) {
    super(config);
  }

  override async connect(): Promise<Adapter> {
    const writing = await super.connect();
    const reading = await super.connect();
    await writing.executeScript(`PRAGMA synchronous = ${this.synchronous}`);
    await reading.executeScript("PRAGMA query_only = ON");
    const writes = new Turns();
    const queryRaw = writing.queryRaw.bind(writing);
    const executeRaw = writing.executeRaw.bind(writing);
    const startTransaction = writing.startTransaction.bind(writing);
    const dispose = writing.dispose.bind(writing);
    return Object.assign(writing, {
      getConnectionInfo: () => ({ maxBindValues: MAX_BIND_VALUES, supportsRelationJoins: false }),
      queryRaw: (query: Query) => (onlyReads(query) ? reading.queryRaw(query) : writes.run(() => queryRaw(query))),
      executeRaw: (query: Query) => writes.run(() => executeRaw(query)),
      startTransaction: async (isolationLevel?: Parameters<Adapter["startTransaction"]>[0]) => {
        const release = await writes.take();
        try {
          return endingTurn(await startTransaction(isolationLevel), release);
        } catch (error) {
          release();
          throw error;
        }
      },
      dispose: async () => {
        await reading.dispose();
        await dispose();
      },
    });
  }
}

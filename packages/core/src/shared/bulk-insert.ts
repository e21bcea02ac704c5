import { MAX_BIND_VALUES, type Provider, type Tx } from "../db/db.ts";
import { Prisma } from "../generated/sqlite/client.ts";
import { yieldToRequests } from "./time-slices.ts";

/**
 * How long one batch of a long write should run: the requests that wait for the event loop between batches wait
 * about this long. Batches start small and grow or shrink to it, since a batch's cost depends on what it writes
 * (an occurrence with a hundred terms writes a hundred link rows) and on the machine's load.
 */
const BATCH_TARGET_MS = 25;
const FIRST_BATCH = 10;
const MAX_BATCH = 500;

/**
 * Runs `work` on the items a batch at a time, giving the event loop back between batches. On SQLite the driver
 * runs each statement synchronously, so a write of thousands of rows would otherwise hold the loop from its first
 * statement to its commit; inside a transaction the other writes wait for its lock (without blocking the loop) and
 * the reads go through their own connection (`db/reader.sqlite.ts`), so they all keep being answered.
 */
export async function inBatches<T>(items: readonly T[], work: (batch: readonly T[]) => Promise<void>): Promise<void> {
  let size = FIRST_BATCH;
  for (let from = 0; from < items.length; ) {
    if (from > 0) await yieldToRequests();
    const batch = items.slice(from, from + size);
    const started = performance.now();
    await work(batch);
    const tookMs = Math.max(1, performance.now() - started);
    size = Math.max(1, Math.min(MAX_BATCH, 2 * size, Math.round((size * BATCH_TARGET_MS) / tookMs)));
    from += batch.length;
  }
}

type Value = string | number | boolean | Date | null;
type Row = Record<string, Value | undefined>;

/**
 * The rows grouped by the columns they set: an unset column keeps its database default, and one multi-row
 * `VALUES` list must name the same columns in every row.
 */
function byColumns<T extends Row>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = Object.keys(row)
      .filter((column) => row[column] !== undefined)
      .sort()
      .join(",");
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/** `"a", "b"`: names that come from the caller's code, never from input. */
function quotedNames(names: readonly string[]): Prisma.Sql {
  return Prisma.raw(names.map((name) => `"${name}"`).join(", "));
}

function statements<T extends Row>(table: string, rows: readonly T[]): Prisma.Sql[] {
  const result: Prisma.Sql[] = [];
  for (const [key, group] of byColumns(rows)) {
    const columns = key.split(",");
    const perStatement = Math.max(1, Math.floor(MAX_BIND_VALUES / columns.length));
    const names = quotedNames(columns);
    for (let from = 0; from < group.length; from += perStatement) {
      const values = group
        .slice(from, from + perStatement)
        .map((row) => Prisma.sql`(${Prisma.join(columns.map((column) => row[column] as Value))})`);
      result.push(Prisma.sql`INSERT INTO "${Prisma.raw(table)}" (${names}) VALUES ${Prisma.join(values)}`);
    }
  }
  return result;
}

/**
 * Inserts many rows with multi-row statements, a batch at a time (`inBatches`), for bulk writes whose rows the caller has validated: Prisma's
 * `createMany` prepares every row through its query compiler, which costs more than the database's own work by
 * an order of magnitude at thousands of rows. Table and column names come from the caller, never from input.
 */
export async function insertRows(tx: Tx, table: string, rows: readonly Row[]): Promise<void> {
  await inBatches(rows, async (batch) => {
    for (const statement of statements(table, batch)) await tx.$executeRaw(statement);
  });
}

/** `insertRows` that returns the listed columns of every inserted row (in no particular order). */
export async function insertRowsReturning<R>(
  tx: Tx,
  table: string,
  rows: readonly Row[],
  returning: readonly string[],
): Promise<R[]> {
  const columns = quotedNames(returning);
  const inserted: R[] = [];
  await inBatches(rows, async (batch) => {
    for (const statement of statements(table, batch)) {
      inserted.push(...(await tx.$queryRaw<R[]>`${statement} RETURNING ${columns}`));
    }
  });
  return inserted;
}

/** The type of a column whose values `updateRows` binds: PostgreSQL cannot infer it from a `VALUES` list. */
export type ColumnType = "text" | "integer" | "boolean" | "timestamp";

const POSTGRES_TYPES: Record<ColumnType, string> = {
  text: "text",
  integer: "integer",
  boolean: "boolean",
  timestamp: "timestamp(3)",
};

export interface RowUpdates {
  /** The columns every row sets, with their types. */
  columns: Readonly<Record<string, ColumnType>>;
  /** Integer columns each row's value grows by one. */
  increments?: readonly string[];
  rows: ReadonlyArray<{ id: number } & Row>;
}

/**
 * Updates many rows by id, each with values of its own, one statement per batch (`inBatches`): a `VALUES` list
 * joined on the id (`UPDATE … FROM`: SQLite 3.33 and PostgreSQL).
 * Table and column names come from the caller, never from input.
 */
export async function updateRows(tx: Tx, provider: Provider, table: string, updates: RowUpdates): Promise<void> {
  const columns = Object.keys(updates.columns);
  const typed = (column: string, value: Value | undefined): Prisma.Sql => {
    const type = column === "id" ? "integer" : updates.columns[column];
    const bound = Prisma.sql`${value ?? null}`;
    return provider === "postgres" && type ? Prisma.sql`CAST(${bound} AS ${Prisma.raw(POSTGRES_TYPES[type])})` : bound;
  };
  const sets = [
    ...columns.map((column) => `"${column}" = "v"."${column}"`),
    ...(updates.increments ?? []).map((column) => `"${column}" = "${table}"."${column}" + 1`),
  ].join(", ");
  await inBatches(updates.rows, async (batch) => {
    const values = batch.map(
      (row) => Prisma.sql`(${Prisma.join(["id", ...columns].map((column) => typed(column, row[column])))})`,
    );
    await tx.$executeRaw`WITH "v" (${quotedNames(["id", ...columns])}) AS (VALUES ${Prisma.join(values)})
      UPDATE "${Prisma.raw(table)}" SET ${Prisma.raw(sets)} FROM "v" WHERE "${Prisma.raw(table)}"."id" = "v"."id"`;
  });
}

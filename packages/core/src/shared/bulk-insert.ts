import { MAX_BIND_VALUES, type Tx } from "../db/db.ts";
import { Prisma } from "../generated/sqlite/client.ts";

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
 * Inserts many rows with multi-row statements, for bulk writes whose rows the caller has validated: Prisma's
 * `createMany` prepares every row through its query compiler, which costs more than the database's own work by
 * an order of magnitude at thousands of rows. Table and column names come from the caller, never from input.
 */
export async function insertRows(tx: Tx, table: string, rows: readonly Row[]): Promise<void> {
  for (const statement of statements(table, rows)) await tx.$executeRaw(statement);
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
  for (const statement of statements(table, rows)) {
    inserted.push(...(await tx.$queryRaw<R[]>`${statement} RETURNING ${columns}`));
  }
  return inserted;
}

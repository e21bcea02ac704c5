import { type Db, type Provider, readerOf } from "./db.ts";
import type { SqlParam } from "./reader.ts";

/** A `SELECT 1 FROM … WHERE …` in each provider's spelling (they differ in how parameters are written). */
export type RowQuery = Readonly<Record<Provider, string>>;

/** Whether `query` finds a row, read on the driver: the workers' "anything to do?" before they write. */
export async function anyRow(db: Db, query: RowQuery, params: readonly SqlParam[]): Promise<boolean> {
  const reader = readerOf(db);
  return (await reader.json(`SELECT 'found' WHERE EXISTS (${query[reader.provider]})`, params)) !== null;
}

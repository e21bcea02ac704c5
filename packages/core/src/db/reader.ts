import type { Provider } from "./db.ts";

/**
 * The hot reads' way past Prisma's per-statement cost: one statement that the database answers with one JSON
 * text, run straight on the driver with its prepared statement kept. Prisma stays the data model, the migrations
 * and the write path; the statements are built per provider by `json-sql.ts`. The start-up checks, the workers'
 * polls and authentication run here too, so that Prisma's query compiler is loaded only by the first real write.
 */
export type SqlParam = string | number | number[] | string[];

/**
 * Prepared statements a reader keeps. A list's statement text follows its filters (which ones, how many search
 * words), so the texts are many but not endless; the bound keeps a stream of unusual queries from growing memory.
 */
export const MAX_PREPARED_STATEMENTS = 256;

export interface JsonReader {
  readonly provider: Provider;
  /** The first column of the first row (a JSON text built by the database), or null when no row matches. */
  json(sql: string, params: readonly SqlParam[]): Promise<string | null>;
  /**
   * Runs one statement that writes, on its own (no transaction): how many rows it changed, or "busy" when another
   * connection holds SQLite's write lock. It does not wait for that lock: better-sqlite3 would wait synchronously,
   * stopping the event loop and with it the Prisma transaction that holds the lock. PostgreSQL waits as usual.
   */
  tryExecute(sql: string, params: readonly SqlParam[]): Promise<number | "busy">;
  close(): Promise<void>;
}

/**
 * The hot reads' way past Prisma's per-statement cost: one statement that the database answers with one JSON
 * text, run straight on the driver with its prepared statement kept. Prisma stays the data model, the migrations
 * and the write path; the statements are built per provider by `json-sql.ts`.
 */
export type SqlParam = string | number | number[] | string[];

/**
 * Prepared statements a reader keeps. A list's statement text follows its filters (which ones, how many search
 * words), so the texts are many but not endless; the bound keeps a stream of unusual queries from growing memory.
 */
export const MAX_PREPARED_STATEMENTS = 256;

export interface JsonReader {
  /** The first column of the first row (a JSON text built by the database), or null when no row matches. */
  json(sql: string, params: readonly SqlParam[]): Promise<string | null>;
  close(): Promise<void>;
}

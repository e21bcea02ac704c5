import type { Pool } from "pg";
import { type JsonReader, MAX_PREPARED_STATEMENTS } from "./reader.ts";

/**
 * Reads on the pool the Prisma adapter uses; each statement is prepared once per connection (named), up to
 * `MAX_PREPARED_STATEMENTS` texts. Closing ends the pool unless the adapter already has.
 */
export function postgresReader(pool: Pool): JsonReader {
  const names = new Map<string, string>();
  return {
    provider: "postgres",
    async json(sql, params) {
      let name = names.get(sql);
      // Past the bound, a new text runs unnamed (parsed each time): a named one stays on every connection.
      if (!name && names.size < MAX_PREPARED_STATEMENTS) {
        name = `calendar_read_${names.size + 1}`;
        names.set(sql, name);
      }
      const result = await pool.query<[string | null]>({
        ...(name ? { name } : {}),
        text: sql,
        values: [...params],
        rowMode: "array",
      });
      return result.rows[0]?.[0] ?? null;
    },
    async tryExecute(sql, params) {
      return (await pool.query({ text: sql, values: [...params] })).rowCount ?? 0;
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

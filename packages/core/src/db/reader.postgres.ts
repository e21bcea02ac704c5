import type { Pool } from "pg";
import type { JsonReader } from "./reader.ts";

/**
 * Reads on the pool the Prisma adapter uses; each statement is prepared once per connection (named). Closing ends
 * the pool unless the adapter already has.
 */
export function postgresReader(pool: Pool): JsonReader {
  const names = new Map<string, string>();
  return {
    async json(sql, params) {
      let name = names.get(sql);
      if (!name) {
        name = `calendar_read_${names.size + 1}`;
        names.set(sql, name);
      }
      const result = await pool.query<[string | null]>({ name, text: sql, values: [...params], rowMode: "array" });
      return result.rows[0]?.[0] ?? null;
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

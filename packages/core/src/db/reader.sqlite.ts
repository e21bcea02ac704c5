import Database from "better-sqlite3";
import { type JsonReader, MAX_PREPARED_STATEMENTS } from "./reader.ts";

/**
 * A reading connection of its own beside the adapter's: the adapter prepares every statement anew and shares its
 * connection with open transactions, whose uncommitted writes a read must not see. In WAL mode it reads the last
 * committed state while a writer works.
 */
export function openSqliteReader(path: string, timeoutMs: number): JsonReader {
  const database = new Database(path, { timeout: timeoutMs });
  database.pragma("query_only = ON");
  const statements = new Map<string, Database.Statement<unknown[], unknown>>();
  return {
    async json(sql, params) {
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last, so the first is the one to drop.
        statements.delete(sql);
      } else {
        statement = database.prepare<unknown[], unknown>(sql).pluck();
        if (statements.size >= MAX_PREPARED_STATEMENTS) {
          const [oldest] = statements.keys();
          if (oldest !== undefined) statements.delete(oldest);
        }
      }
      statements.set(sql, statement);
      const value = statement.get(...params);
      return typeof value === "string" ? value : null;
    },
    async close() {
      database.close();
    },
  };
}

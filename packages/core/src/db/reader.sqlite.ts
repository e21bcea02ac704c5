import Database from "better-sqlite3";
import type { SqliteSynchronous } from "./db.ts";
import { type JsonReader, MAX_PREPARED_STATEMENTS } from "./reader.ts";

/**
 * A reading connection of its own beside the adapter's: the adapter prepares every statement anew and shares its
 * connection with open transactions, whose uncommitted writes a read must not see. In WAL mode it reads the last
 * committed state while a writer works. The few writes made outside Prisma go through a second connection, opened
 * at the first one, so that reads keep `query_only`.
 */
export function openSqliteReader(path: string, timeoutMs: number, synchronous: SqliteSynchronous): JsonReader {
  const database = new Database(path, { timeout: timeoutMs });
  database.pragma("query_only = ON");
  let writer: Database.Database | undefined;
  const statements = new Map<string, Database.Statement<unknown[], unknown>>();
  return {
    provider: "sqlite",
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
    async tryExecute(sql, params) {
      if (!writer) {
        writer = new Database(path, { timeout: 0 });
        writer.pragma(`synchronous = ${synchronous}`);
      }
      try {
        return writer.prepare(sql).run(...params).changes;
      } catch (error) {
        if (error instanceof Database.SqliteError && error.code === "SQLITE_BUSY") return "busy";
        throw error;
      }
    },
    async close() {
      database.close();
      writer?.close();
    },
  };
}

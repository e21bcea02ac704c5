import { fileURLToPath } from "node:url";
import type { Provider } from "@calendar/core";
import Database from "better-sqlite3";
import pg from "pg";
import type { Statement, Value } from "./limit.statements.ts";

/**
 * The limit's database access: the bare driver (better-sqlite3 with statements prepared once, a `pg` pool), one
 * statement per request, its one column read as the JSON text the database built.
 */
export interface LimitDriver {
  provider: Provider;
  /** The `body` column of the statement's first row, or null when it has none. */
  body(statement: Statement): Promise<string | null>;
  close(): Promise<void>;
}

function sqliteDriver(path: string): LimitDriver {
  const db = new Database(path, { readonly: true });
  const statements = new Map<string, Database.Statement>();
  const bind = (value: Value) => {
    if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
    return typeof value === "boolean" ? Number(value) : value;
  };
  return {
    provider: "sqlite",
    async body({ sql, params }) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql).pluck();
        statements.set(sql, statement);
      }
      return (statement.get(...params.map(bind)) as string | undefined) ?? null;
    },
    async close() {
      db.close();
    },
  };
}

function postgresDriver(url: string): LimitDriver {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // Prisma keeps DateTime as UTC in "timestamp(3)" columns: compare with UTC wall times.
  const bind = (value: Value) =>
    value instanceof Date ? value.toISOString().replace("T", " ").replace("Z", "") : value;
  return {
    provider: "postgres",
    async body({ sql, params }) {
      let index = 0;
      const text = sql.replace(/\?/g, () => `$${++index}`);
      const { rows } = await pool.query<{ body: string }>(text, params.map(bind));
      return rows[0]?.body ?? null;
    },
    close: () => pool.end(),
  };
}

export function limitDriver(url: string): LimitDriver {
  if (!url.startsWith("file:")) return postgresDriver(url);
  return sqliteDriver(url.startsWith("file://") ? fileURLToPath(url) : url.slice("file:".length));
}

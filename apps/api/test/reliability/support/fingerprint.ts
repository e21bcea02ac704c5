import { createHash } from "node:crypto";
import type { DbHandle } from "@calendar/core";

/** Columns that reads change on purpose (a token's last use), left out of the fingerprint. */
const VOLATILE_COLUMNS = new Set(["lastUsedAt"]);

/**
 * Tables that no request writes, left out of the fingerprint: the webhook worker of the server process renews its
 * lease (`WebhookLease`) every poll, whatever the requests do. Everything else the worker writes stays in: it
 * derives deliveries, attempts and a subscription's cursor and failure columns only from committed changes, so they
 * cannot move while no request commits one (the fuzz's webhook is made after the other fixtures, with its cursor
 * at the head of the feed).
 */
const WORKER_TABLES = new Set(["WebhookLease"]);

async function tableNames(handle: DbHandle): Promise<string[]> {
  const rows =
    handle.provider === "sqlite"
      ? await handle.db.$queryRawUnsafe<Array<{ name: string }>>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_prisma%'",
        )
      : await handle.db.$queryRawUnsafe<Array<{ name: string }>>(
          "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE '_prisma%'",
        );
  return rows.map((row) => row.name).sort();
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item) => {
    if (typeof item === "bigint") return item.toString();
    if (item instanceof Date) return item.toISOString();
    return item;
  });
}

/** Row count and content hash of every table: equal fingerprints mean equal databases. */
export async function databaseFingerprint(handle: DbHandle): Promise<Record<string, { rows: number; hash: string }>> {
  const fingerprint: Record<string, { rows: number; hash: string }> = {};
  for (const table of await tableNames(handle)) {
    if (WORKER_TABLES.has(table)) continue;
    const rows = await handle.db.$queryRawUnsafe<Array<Record<string, unknown>>>(`SELECT * FROM "${table}"`);
    const lines = rows
      .map((row) => canonical(Object.entries(row).filter(([column]) => !VOLATILE_COLUMNS.has(column))))
      .sort();
    fingerprint[table] = { rows: rows.length, hash: createHash("sha256").update(lines.join("\n")).digest("hex") };
  }
  return fingerprint;
}

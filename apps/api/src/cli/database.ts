import { existsSync } from "node:fs";
import { createDb, type DbHandle, domainError, sqliteFilePath } from "@calendar/core";
import { migrateDatabase } from "@calendar/migrate";
import { InvalidArgumentError } from "commander";
import type { Config } from "../config.ts";
import type { CliOutput } from "./program.ts";

/** Does a command only read (refused on a database that does not exist yet) or also write? */
type Access = "read" | "write";

/**
 * Opens the database of `DATABASE_URL`, migrated. A SQLite file that does not exist yet is a mistake for a command
 * that reads (the path is probably not the one meant), and worth saying for one that writes.
 */
export async function withDatabase<T>(
  config: Config,
  output: CliOutput,
  access: Access,
  work: (handle: DbHandle) => Promise<T>,
): Promise<T> {
  const url = config.DATABASE_URL;
  if (url.startsWith("file:") && !existsSync(sqliteFilePath(url))) {
    const path = sqliteFilePath(url);
    if (access === "read") {
      throw domainError("database_not_found", { path });
    }
    output.err(`Creating a new, empty SQLite database at ${path}.\n`);
  }
  await migrateDatabase(url);
  const handle = await createDb(url, { sqliteSynchronous: config.CALENDAR_SQLITE_SYNCHRONOUS });
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

export function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError("Must be a positive whole number.");
  return Number(value);
}

export function table(rows: Array<Record<string, unknown>>): string {
  if (rows.length === 0) return "(none)";
  const columns = Object.keys(rows[0] ?? {});
  const cell = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value ?? ""));
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)));
  const line = (values: string[]) => values.map((value, index) => value.padEnd(widths[index] ?? 0)).join("  ");
  return [line(columns), ...rows.map((row) => line(columns.map((column) => cell(row[column]))))].join("\n");
}

import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { onTestFinished } from "vitest";
import { dropDatabase, postgresUrlWithDatabase } from "../src/databases.mjs";
import { prismaDir } from "../src/index.mjs";

export const postgresServerUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
export const packageDir = fileURLToPath(new URL("..", import.meta.url));
export const toolPath = path.join(packageDir, "bin", "prisma.mjs");
export const shimPath = path.join(packageDir, "bin", "schema-engine-shim.mjs");

/** A new folder, removed when the current test ends. */
export function temporaryDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "calendar-migrate-test-"));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function uniqueDatabaseName(prefix = "migrate_test") {
  return `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
}

/** The model names of prisma/schema.prisma: each must be a table after the migrations. */
export function modelNames() {
  const models = fs.readFileSync(path.join(prismaDir, "schema.prisma"), "utf8");
  return [...models.matchAll(/^model (\w+) \{/gm)].map((match) => match[1]);
}

/** A copy of the committed migrations of `provider` plus extra migrations ({ folder: sql }). */
export function migrationsWith(provider, extraMigrations) {
  const dir = path.join(temporaryDir(), "migrations");
  fs.cpSync(path.join(prismaDir, provider, "migrations"), dir, { recursive: true });
  for (const [folder, sql] of Object.entries(extraMigrations)) {
    fs.mkdirSync(path.join(dir, folder));
    fs.writeFileSync(path.join(dir, folder, "migration.sql"), sql);
  }
  return dir;
}

/** A database name for the current test, and SQL access to it; the database is removed when the test ends. */
export const databases = {
  sqlite: () => {
    const dir = temporaryDir();
    const file = path.join(dir, "nested", "folder", "calendar.db");
    const query = async (sql, ...params) => {
      const db = new Database(file, { fileMustExist: true });
      try {
        const statement = db.prepare(sql.replaceAll(/\$\d+/g, "?"));
        if (statement.reader) return statement.all(...params);
        statement.run(...params);
        return [];
      } finally {
        db.close();
      }
    };
    return {
      url: `file:${file}`,
      file,
      query,
      tables: async () => (await query("SELECT name FROM sqlite_master WHERE type = 'table'")).map((row) => row.name),
    };
  },
  postgres: () => {
    const url = postgresUrlWithDatabase(postgresServerUrl, uniqueDatabaseName());
    onTestFinished(() => dropDatabase(url));
    const query = async (sql, ...params) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end();
      }
    };
    return {
      url,
      query,
      tables: async () =>
        (await query("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")).map((row) => row.name),
    };
  },
};

/** Runs a node script; resolves with its exit code and output (never rejects on a non-zero exit). */
export function runNode(args, { env = {}, cwd = packageDir } = {}) {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

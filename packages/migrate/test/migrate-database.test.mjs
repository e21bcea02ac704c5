import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureDatabase } from "../src/databases.mjs";
import { databaseIsUpToDate, migrateDatabase, migrationsDirOf, needsMigrating, providerOf } from "../src/index.mjs";
import { readMigrationsList } from "../src/wasm-engine.mjs";
import { databases, migrationsWith, modelNames, runNode } from "./helpers.mjs";

const failingMigration = {
  "99990101000000_broken": 'CREATE TABLE "Ok1" ("id" INTEGER);\nSELECT * FROM does_not_exist;\n',
};

describe("providerOf", () => {
  it("tells SQLite and PostgreSQL URLs apart and rejects anything else", () => {
    expect(providerOf("file:./data/calendar.db")).toBe("sqlite");
    expect(providerOf("postgres://u:p@host/db")).toBe("postgres");
    expect(providerOf("postgresql://u@host:5433/db?schema=x")).toBe("postgres");
    expect(() => providerOf("mysql://u:secret@host/db")).toThrow(
      /Unsupported database URL "mysql:\/\/u:\*\*\*@host\/db"/,
    );
  });
});

describe.each(["sqlite", "postgres"])("migrateDatabase on %s", (provider) => {
  const migrations = fs
    .readdirSync(migrationsDirOf(provider))
    .filter((name) => !name.endsWith(".toml"))
    .sort();
  it("creates the database, applies every migration, then applies nothing", async () => {
    const database = databases[provider]();
    const lines = [];

    expect(await migrateDatabase(database.url, { log: (line) => lines.push(line) })).toEqual({
      applied: migrations,
    });

    expect(await database.tables()).toEqual(expect.arrayContaining([...modelNames(), "_prisma_migrations"]));
    const rows = await database.query(
      "SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows).toEqual(
      migrations.map((migration) => ({
        migration_name: migration,
        checksum: createHash("sha256")
          .update(fs.readFileSync(path.join(migrationsDirOf(provider), migration, "migration.sql")))
          .digest("hex"),
        finished_at: expect.anything(),
      })),
    );
    for (const migration of migrations) expect(lines.join("\n")).toContain(`Applying migration ${migration}`);

    expect(await migrateDatabase(database.url)).toEqual({ applied: [] });
  });

  it("answers up to date from _prisma_migrations only when every migration finished", async () => {
    const database = databases[provider]();
    const committed = await readMigrationsList(migrationsDirOf(provider));
    await ensureDatabase(database.url);
    expect(await databaseIsUpToDate(database.url, committed)).toBe(false);

    await migrateDatabase(database.url);
    expect(await databaseIsUpToDate(database.url, committed)).toBe(true);
    const withPending = await readMigrationsList(migrationsWith(provider, failingMigration));
    expect(await databaseIsUpToDate(database.url, withPending)).toBe(false);

    await database.query("UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = $1", migrations[0]);
    expect(await databaseIsUpToDate(database.url, committed)).toBe(false);
  });

  it("needs migrating while the database is missing or behind, and not once migrated", async () => {
    const database = databases[provider]();
    expect(await needsMigrating(database.url)).toBe(true);
    await migrateDatabase(database.url);
    expect(await needsMigrating(database.url)).toBe(false);
    await database.query("DELETE FROM _prisma_migrations WHERE migration_name = $1", migrations.at(-1));
    expect(await needsMigrating(database.url)).toBe(true);
  });

  it("rolls a failing migration back entirely and names it in the error", async () => {
    const database = databases[provider]();
    const migrationsDir = migrationsWith(provider, failingMigration);

    const failure = migrateDatabase(database.url, { migrationsDir });

    await expect(failure).rejects.toThrow(/Migration 99990101000000_broken failed .*does_not_exist/);
    const tables = await database.tables();
    expect(tables).toContain("Event"); // the migrations before it are applied
    expect(tables).not.toContain("Ok1"); // the failing one's first statement is not
    const rows = await database.query(
      "SELECT finished_at FROM _prisma_migrations WHERE migration_name = $1",
      "99990101000000_broken",
    );
    expect(rows).toEqual([{ finished_at: null }]);
  });
});

describe("migrateDatabase on sqlite, table redefinitions", () => {
  it("does not cascade-delete child rows when a migration rebuilds a parent table", async () => {
    const database = databases.sqlite();
    await migrateDatabase(database.url);
    await database.query("INSERT INTO \"User\" (login, role) VALUES ('ada', 'editor')");
    await database.query("INSERT INTO \"ApiToken\" (userId, tokenHash) VALUES (1, 'hash')");

    const migrationsDir = migrationsWith("sqlite", { "99990101000000_redefine_user": redefineUserTable });
    expect((await migrateDatabase(database.url, { migrationsDir })).applied).toEqual(["99990101000000_redefine_user"]);

    expect(await database.query('SELECT login, bio FROM "User"')).toEqual([{ login: "ada", bio: "" }]);
    expect(await database.query('SELECT tokenHash FROM "ApiToken"')).toEqual([{ tokenHash: "hash" }]);
  });
});

describe("migrateDatabase on postgres from several processes at once", () => {
  it("applies each migration once and every process succeeds", async () => {
    const database = databases.postgres();
    const script =
      `const { migrateDatabase } = await import(${JSON.stringify(new URL("../src/index.mjs", import.meta.url).href)});` +
      "console.log(JSON.stringify(await migrateDatabase(process.env.DATABASE_URL)));";
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        runNode(["--input-type=module", "-e", script], { env: { DATABASE_URL: database.url } }),
      ),
    );

    expect(runs.map((run) => [run.code, run.stderr])).toEqual(runs.map(() => [0, ""]));
    const migrations = fs.readdirSync(migrationsDirOf("postgres")).filter((name) => !name.endsWith(".toml"));
    const applied = runs.flatMap((run) => JSON.parse(run.stdout).applied);
    expect(applied.sort()).toEqual(migrations.sort());
    expect(await database.query("SELECT count(*)::int AS count FROM _prisma_migrations")).toEqual([
      { count: migrations.length },
    ]);
  });
});

/** What Prisma generates for SQLite when a column is added to User with a default: a table rebuild. */
const redefineUserTable = `-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "login" TEXT NOT NULL,
    "displayName" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL DEFAULT '',
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "bio" TEXT NOT NULL DEFAULT ''
);
INSERT INTO "new_User" ("createdAt", "displayName", "email", "id", "login", "role") SELECT "createdAt", "displayName", "email", "id", "login", "role" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_login_key" ON "User"("login");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`;

describe("migrateDatabase on sqlite beside an open connection", () => {
  it("reports an up-to-date file while another connection (a running server) has it open in WAL mode", async () => {
    const database = databases.sqlite();
    await migrateDatabase(database.url);
    const { default: Database } = await import("better-sqlite3");
    const open = new Database(database.url.slice("file:".length));
    try {
      open.pragma("journal_mode = WAL");
      open.prepare('SELECT COUNT(*) FROM "User"').get();
      expect(await migrateDatabase(database.url)).toEqual({ applied: [] });
    } finally {
      open.close();
    }
  });
});

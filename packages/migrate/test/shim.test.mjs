import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrateDatabase, migrationsDirOf, prismaDir } from "../src/index.mjs";
import { runNode, shimPath, temporaryDir, toolPath } from "./helpers.mjs";

describe("schema-engine shim", () => {
  it("answers --version like the native binary", async () => {
    const result = await runNode([shimPath, "--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^schema-engine-cli [0-9a-f]{40} \(wasm shim\)\n$/);
  });

  it("reports a missing database in the one-shot protocol (P1003 on stderr, exit 1)", async () => {
    const dir = temporaryDir();
    const datasource = JSON.stringify({ url: `file:${path.join(dir, "missing.db")}` });

    const result = await runNode([shimPath, "--datasource", datasource, "cli", "can-connect-to-database"]);

    expect(result.code).toBe(1);
    const lastLine = JSON.parse(result.stderr.trim().split("\n").at(-1));
    expect(lastLine).toMatchObject({
      level: "ERROR",
      target: "schema_engine::logger",
      fields: { error_code: "P1003" },
    });
  });

  it("runs the stock CLI's migrate deploy and migrate status on SQLite", async () => {
    const dir = temporaryDir();
    const url = `file:${path.join(dir, "cli.db")}`;
    const config = writeSqliteConfig(dir, url);
    const prisma = (...args) => runNode([toolPath, "prisma", ...args, "--config", config], { cwd: dir });

    const deploy = await prisma("migrate", "deploy");
    expect(deploy.code, deploy.stderr).toBe(0);
    expect(deploy.stdout).toMatch(/All migrations have been successfully applied/);

    const status = await prisma("migrate", "status");
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/Database schema is up to date!/);

    // The CLI and migrateDatabase share one migrations table.
    expect(await migrateDatabase(url)).toEqual({ applied: [] });
  });
});

function writeSqliteConfig(dir, url) {
  const file = path.join(dir, "sqlite.config.mjs");
  const config = {
    schema: path.join(prismaDir, "sqlite", "schema.prisma"),
    migrations: { path: migrationsDirOf("sqlite") },
    datasource: { url },
  };
  fs.writeFileSync(file, `export default ${JSON.stringify(config)};\n`);
  return file;
}

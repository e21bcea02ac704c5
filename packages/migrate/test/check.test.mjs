import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrationsDirOf, prismaDir } from "../src/index.mjs";
import { runNode, temporaryDir, toolPath } from "./helpers.mjs";

const extraModel = "\nmodel Extra {\n  id   Int    @id @default(autoincrement())\n  name String\n}\n";

/** A copy of the repository's prisma folder (schemas and migrations) to break on purpose. */
function copyOfPrismaDir() {
  const dir = path.join(temporaryDir(), "prisma");
  fs.cpSync(prismaDir, dir, { recursive: true, filter: (source) => !source.endsWith(".config.ts") });
  return dir;
}

const check = (dir) => runNode([toolPath, "check", ...(dir ? ["--prisma-dir", dir] : [])]);
const sync = (dir) => runNode([toolPath, "sync", "--prisma-dir", dir]);

describe("prisma.mjs check", () => {
  it("passes on the repository", async () => {
    const result = await check();
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("fails when a provider schema is out of sync with prisma/schema.prisma", async () => {
    const dir = copyOfPrismaDir();
    fs.appendFileSync(path.join(dir, "schema.prisma"), extraModel);

    const result = await check(dir);

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/sqlite[/\\]schema\.prisma is out of sync/);
    expect(result.stderr).toMatch(/postgres[/\\]schema\.prisma is out of sync/);
  });

  it("fails when the schema has changed and no migration was created, for both providers", async () => {
    const dir = copyOfPrismaDir();
    fs.appendFileSync(path.join(dir, "schema.prisma"), extraModel);
    expect((await sync(dir)).code).toBe(0);

    const result = await check(dir);

    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/out of sync/);
    expect(result.stderr).toMatch(/sqlite: .*a migration is missing[\s\S]*CREATE TABLE "Extra"/);
    expect(result.stderr).toMatch(/postgres: .*a migration is missing[\s\S]*CREATE TABLE "Extra"/);
  });

  it.each(["sqlite", "postgres"])("fails when only %s lacks a migration", async (provider) => {
    const dir = copyOfPrismaDir();
    const migrationsDir = path.join(dir, path.relative(prismaDir, migrationsDirOf(provider)));
    for (const name of fs.readdirSync(migrationsDir).filter((entry) => !entry.endsWith(".toml"))) {
      fs.rmSync(path.join(migrationsDir, name), { recursive: true });
    }

    const result = await check(dir);

    expect(result.code).toBe(1);
    const other = provider === "sqlite" ? "postgres" : "sqlite";
    expect(result.stderr).toMatch(new RegExp(`${provider}: .*a migration is missing`));
    expect(result.stderr).not.toMatch(new RegExp(`${other}: `));
  });
});

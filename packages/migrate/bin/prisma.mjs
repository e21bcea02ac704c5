#!/usr/bin/env node
// The repository's database commands (root scripts db:generate, db:check, db:migrate, db:prisma).
//
//   prisma.mjs sync                       write prisma/<sqlite|postgres>/schema.prisma from prisma/schema.prisma
//   prisma.mjs generate-all               sync, then `prisma generate` for both providers
//   prisma.mjs check                      fail if a provider schema is stale or a migration is missing
//   prisma.mjs migrate-dev --name <name>  create the next migration for both providers
//   prisma.mjs prisma <args…>             the stock Prisma CLI, with the wasm schema-engine shim
//
// Options: --prisma-dir <dir> (default: the repository's prisma folder). The PostgreSQL server for shadow and
// temporary databases is TEST_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/postgres; CREATEDB).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createMigrations } from "../src/create-migrations.mjs";
import { prismaDir as repositoryPrismaDir } from "../src/index.mjs";
import { runPrismaCli } from "../src/prisma-cli.mjs";
import {
  modelsFile,
  PROVIDERS,
  providerMigrationsDir,
  providerSchemaFile,
  staleProviderSchemas,
  syncProviderSchemas,
} from "../src/provider-schemas.mjs";

const postgresServerUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

const commands = {
  sync: ({ prismaDir }) => sync(prismaDir),
  "generate-all": ({ prismaDir }) => generateAll(prismaDir),
  check: ({ prismaDir }) => check(prismaDir),
  "migrate-dev": ({ prismaDir, name }) => migrateDev(prismaDir, name),
};

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === "prisma") return (await runPrismaCli(rest)).code;
  if (!commands[command]) {
    console.error(
      `Usage: prisma.mjs sync|generate-all|check|migrate-dev --name <name>|prisma <args…> [--prisma-dir <dir>]`,
    );
    return 1;
  }
  const { values } = parseArgs({
    args: rest,
    options: { "prisma-dir": { type: "string" }, name: { type: "string" } },
  });
  const prismaDir = path.resolve(values["prisma-dir"] ?? repositoryPrismaDir);
  return (await commands[command]({ prismaDir, name: values.name })) ?? 0;
}

function sync(prismaDir) {
  const written = syncProviderSchemas(prismaDir);
  for (const file of written) console.log(`wrote ${display(file)}`);
  if (written.length === 0) console.log("provider schemas are up to date");
}

async function generateAll(prismaDir) {
  sync(prismaDir);
  for (const provider of PROVIDERS) {
    const config = path.join(prismaDir, `${provider.name}.config.ts`);
    const { code } = await runPrismaCli(["generate", "--config", config], { cwd: path.dirname(prismaDir) });
    if (code !== 0) throw new Error(`prisma generate failed for ${provider.name} (exit code ${code})`);
  }
}

async function check(prismaDir) {
  const staleSchemas = staleProviderSchemas(prismaDir).map(
    (file) => `${display(file)} is out of sync with ${display(modelsFile(prismaDir))}: run \`pnpm db:generate\``,
  );
  const missingMigrations = await withTemporaryDir((dir) =>
    Promise.all(PROVIDERS.map((provider) => findMissingMigration(prismaDir, provider, dir))),
  );
  const problems = [...staleSchemas, ...missingMigrations.filter(Boolean)];
  if (problems.length === 0) {
    console.log("db:check: provider schemas in sync, no migration missing (sqlite, postgres)");
    return 0;
  }
  console.error(`db:check failed:\n\n${problems.join("\n\n")}`);
  return 1;
}

/** `prisma migrate diff --from-migrations … --to-schema … --exit-code`: exit 2 = the migrations fall short. */
async function findMissingMigration(prismaDir, provider, tempDir) {
  const migrationsDir = providerMigrationsDir(prismaDir, provider);
  const schemaFile = providerSchemaFile(prismaDir, provider);
  // Replaying the migrations needs a shadow database: an in-memory one for SQLite, a temporary database
  // created on the PostgreSQL server and dropped afterwards.
  const url = provider.name === "sqlite" ? `file:${path.join(tempDir, "check.db")}` : postgresServerUrl;
  const config = writeConfig(tempDir, provider, { schemaFile, migrationsDir, url });
  const diffArgs = ["--from-migrations", migrationsDir, "--to-schema", schemaFile, "--script", "--exit-code"];
  const { code, stdout, stderr } = await runPrismaCli(["migrate", "diff", ...diffArgs, "--config", config], {
    capture: true,
    cwd: tempDir,
  });
  if (code === 0) return undefined;
  if (code === 2) {
    return (
      `${provider.name}: the migrations in ${display(migrationsDir)} do not give ${display(schemaFile)}; ` +
      `a migration is missing (run \`pnpm db:migrate --name <name>\`). It would contain:\n${indent(stdout.trim())}`
    );
  }
  throw new Error(`prisma migrate diff failed for ${provider.name} (exit code ${code}):\n${stderr}${stdout}`);
}

/**
 * A throw-away Prisma config (a plain object: no `prisma/config` import to resolve from a temporary folder),
 * so that the check works for any prisma folder and never touches a configured database.
 */
function writeConfig(dir, provider, { schemaFile, migrationsDir, url }) {
  const file = path.join(dir, `${provider.name}.config.mjs`);
  const config = { schema: schemaFile, migrations: { path: migrationsDir }, datasource: { url } };
  fs.writeFileSync(file, `export default ${JSON.stringify(config, null, 2)};\n`);
  return file;
}

async function migrateDev(prismaDir, name) {
  if (!name) throw new Error("Usage: prisma.mjs migrate-dev --name <name>");
  sync(prismaDir);
  const folder = await createMigrations({ prismaDir, name, postgresServerUrl, log: (line) => console.log(line) });
  console.log(
    folder
      ? `created migration ${folder} for ${PROVIDERS.map((p) => p.name).join(" and ")}`
      : "no schema change: no migration created",
  );
}

async function withTemporaryDir(work) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "calendar-migrate-"));
  try {
    return await work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function display(file) {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith("..") ? file : relative;
}

function indent(text) {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}

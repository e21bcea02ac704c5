// `migrate-dev`: the next migration for BOTH providers from the current provider schemas, under the same folder
// name, generated against throw-away databases (so nobody's development database is touched or reset).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDatabase, dropDatabase, postgresUrlWithDatabase } from "./databases.mjs";
import { PROVIDERS, providerMigrationsDir, providerSchemaFile } from "./provider-schemas.mjs";
import { NO_FILTERS, openMigrationEngine, readMigrationsList } from "./wasm-engine.mjs";

/**
 * @param {{ prismaDir: string, name: string, postgresServerUrl: string, log?: (line: string) => void }} options
 * @returns {Promise<string | undefined>} the new migrations' folder name; undefined when there is no change.
 */
export async function createMigrations({ prismaDir, name, postgresServerUrl, log = () => {} }) {
  const migrationName = name.trim().replace(/[^A-Za-z0-9_]+/g, "_");
  if (!migrationName) throw new Error("A migration needs a --name (letters, digits, _)");

  const drafts = [];
  for (const provider of PROVIDERS) {
    log(`${provider.name}: generating against a temporary database…`);
    drafts.push(await draftMigration({ prismaDir, provider, migrationName, postgresServerUrl }));
  }
  if (drafts.every((draft) => draft.steps === 0)) return undefined;

  const folderName = drafts[0].generatedName; // one name for both, whatever second the second engine saw
  for (const draft of drafts) {
    writeMigration(draft, folderName);
    const folder = path.relative(process.cwd(), path.join(draft.migrationsDir, folderName));
    log(`${draft.provider.name}: wrote ${folder} (${draft.steps} step(s))`);
    for (const warning of draft.warnings) log(`${draft.provider.name}: warning: ${warning.message}`);
  }
  return folderName;
}

/** The migration the engine would create, checked by applying it to the temporary database. */
async function draftMigration({ prismaDir, provider, migrationName, postgresServerUrl }) {
  const schemaFile = providerSchemaFile(prismaDir, provider);
  const schema = { files: [{ path: schemaFile, content: fs.readFileSync(schemaFile, "utf8") }] };
  const migrationsDir = providerMigrationsDir(prismaDir, provider);
  const migrationsList = await readMigrationsList(migrationsDir);

  return withTemporaryDatabase(provider, postgresServerUrl, async (url) => {
    const engine = await openMigrationEngine({ url, schemaFiles: schema.files.map((f) => [f.path, f.content]) });
    try {
      await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
      const { migrationSteps, warnings, unexecutableSteps } = await engine.evaluateDataLoss({
        migrationsList,
        schema,
        filters: NO_FILTERS,
      });
      if (unexecutableSteps.length > 0) {
        throw new Error(`${provider.name}: ${unexecutableSteps.map((step) => step.message).join("\n")}`);
      }
      const created = await engine.createMigration({
        draft: true, // also when this provider has no change, so that both folders stay in step
        migrationName,
        migrationsList,
        schema,
        filters: NO_FILTERS,
      });
      const withNewMigration = {
        ...migrationsList,
        migrationDirectories: [
          ...migrationsList.migrationDirectories,
          {
            path: created.generatedMigrationName,
            migrationFile: {
              path: `migration.${created.extension}`,
              content: { tag: "ok", value: created.migrationScript },
            },
          },
        ],
      };
      await engine.applyMigrations({ migrationsList: withNewMigration, filters: NO_FILTERS });
      return {
        provider,
        migrationsDir,
        steps: migrationSteps,
        warnings,
        generatedName: created.generatedMigrationName,
        script: created.migrationScript,
        extension: created.extension,
        connectorType: created.connectorType,
      };
    } finally {
      await engine.close();
    }
  });
}

async function withTemporaryDatabase(provider, postgresServerUrl, work) {
  if (provider.name === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "calendar-migrate-dev-"));
    try {
      return await work(`file:${path.join(dir, "dev.db")}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const url = postgresUrlWithDatabase(postgresServerUrl, `calendar_migrate_dev_${randomBytes(6).toString("hex")}`);
  await createDatabase(url);
  try {
    return await work(url);
  } finally {
    await dropDatabase(url);
  }
}

/** The same files `prisma migrate dev` writes. */
function writeMigration(draft, folderName) {
  const folder = path.join(draft.migrationsDir, folderName);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, `migration.${draft.extension}`), draft.script);
  fs.writeFileSync(
    path.join(draft.migrationsDir, "migration_lock.toml"),
    `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${draft.connectorType}"\n`,
  );
}

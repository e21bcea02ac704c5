import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig, defineProject } from "vitest/config";
import apiConfig from "./apps/api/vitest.config.ts";
import coreConfig from "./packages/core/vitest.config.ts";
import { SlowestFilesReporter, SummaryLineReporter } from "./vitest.reporters.ts";

/**
 * The slow tests, each file for a reason: many fuzzed requests, a headless browser, or other processes (the server,
 * the CLI, npm, tsc). They run in the `slow:api` project, on both databases (`slow:migrate` holds the migration
 * tooling's tests, which drive both databases and the Prisma CLI).
 */
const SLOW = [
  "test/reliability/bad-input.test.ts",
  "test/explorer/explorer.browser.test.ts",
  "test/event-page/event-page.browser.test.ts",
  "test/server-process.test.ts",
  "test/cli-process.test.ts",
  "test/client/package.test.ts",
  "test/client/rest-client.test.ts",
  "test/readme.test.ts",
  "test/scaling.test.ts",
];

/** What marks a test file as one that needs a database (directly, or through a shared suite). */
const USES_DATABASE = /\bPROVIDERS\b|useTestServer|useTestDatabase|createTestDatabase|\/suites\//;

/** The test files of a package (relative to it), split into those that need a database and the others. */
function testFilesOf(root: string, include: readonly string[]): { database: string[]; pure: string[] } {
  const files = include
    .map((pattern) => pattern.split("/")[0] ?? "")
    .filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".test.ts") && !file.includes("node_modules"))
        .map((file) => join(dir, file)),
    )
    .filter((file) => !SLOW.includes(file));
  const database = files.filter((file) => USES_DATABASE.test(readFileSync(join(root, file), "utf8")));
  return { database, pure: files.filter((file) => !database.includes(file)) };
}

const apiFiles = testFilesOf("apps/api", apiConfig.test?.include ?? []);
const coreFiles = testFilesOf("packages/core", coreConfig.test?.include ?? []);

/** A project of one package's files, with the package's own settings (resolution conditions, timeouts). */
function project(
  base: typeof apiConfig,
  root: string,
  name: string,
  include: string[],
  test: Record<string, unknown> = {},
) {
  return defineProject({ ...base, root, test: { ...base.test, name, include, ...test } });
}

/**
 * The projects: `unit:*` (no database), `sqlite:*` and `postgres:*`, `slow:*`. The sqlite and postgres projects
 * run the same files, each on one database; the postgres one runs only the tests
 * of its database (named "(… postgres)" by `describe.each(PROVIDERS)`), so a test that names no database runs once,
 * in the sqlite project.
 */
const ON_SQLITE = { env: { CALENDAR_TEST_PROVIDERS: "sqlite" } };
const ON_POSTGRES = { env: { CALENDAR_TEST_PROVIDERS: "postgres" }, testNamePattern: /[(, ]postgres\)/ };

export default defineConfig({
  test: {
    projects: [
      project(coreConfig, "packages/core", "unit:core", coreFiles.pure),
      project(apiConfig, "apps/api", "unit:api", apiFiles.pure),
      "packages/client",
      project(coreConfig, "packages/core", "sqlite:core", coreFiles.database, ON_SQLITE),
      project(apiConfig, "apps/api", "sqlite:api", apiFiles.database, ON_SQLITE),
      project(coreConfig, "packages/core", "postgres:core", coreFiles.database, ON_POSTGRES),
      project(apiConfig, "apps/api", "postgres:api", apiFiles.database, ON_POSTGRES),
      project(apiConfig, "apps/api", "slow:api", SLOW),
      "packages/migrate",
    ],
    reporters: ["default", new SlowestFilesReporter(), new SummaryLineReporter()],
  },
});

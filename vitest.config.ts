import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { defineConfig, defineProject } from "vitest/config";
import apiConfig from "./apps/api/vitest.config.ts";
import coreConfig from "./packages/core/vitest.config.ts";
import { SlowestFilesReporter, SummaryLineReporter } from "./vitest.reporters.ts";

/**
 * The slow tests are named for their reason: `*.process.test.ts` start other processes (the server, the CLI, npm,
 * tsc), `*.browser.test.ts` a headless browser. They run in the `slow:api` project, on both databases
 * (`slow:migrate` holds the migration tooling's tests, which drive both databases and the Prisma CLI).
 */
const SLOW = /\.(process|browser)\.test\.ts$/;

/**
 * The API's HTTP test files that run on PostgreSQL as well as on SQLite (the others run on SQLite only; the core's
 * data tests, the equivalence of its raw reads and Prisma's among them, and the slow files run on both). A file
 * joins by its folder, by its name's suffix, or by its path added here: what depends on the database's own
 * behaviour (concurrency, races, durability, the change version, limits and trust), one happy path per resource, and
 * the files whose SQL no other file runs on PostgreSQL (`CALENDAR_TEST_SQL_LOG`, packages/core/src/testing/sql-log.ts,
 * lists the statements a run sends to PostgreSQL).
 */
const ON_POSTGRES_TOO = [
  "test/changes/**/*.test.ts",
  "test/reliability/**/*.test.ts",
  "test/security/**/*.test.ts",
  "test/series/**/*.test.ts",
  "test/webhooks/**/*.test.ts",
  "test/**/*.concurrency.test.ts",
  "test/**/*.happy.test.ts",
  "test/**/*.leaks.test.ts",
  "test/**/*.race.test.ts",
  "test/**/*.security.test.ts",
  "test/**/*.trust.test.ts",
  "test/auth.test.ts",
  "test/cli.test.ts",
  "test/operations.test.ts",
  "test/bench/references.test.ts",
  "test/event-page/record-pages.test.ts",
  "test/events/events.dates.test.ts",
  "test/events/events.linked-visibility.test.ts",
  "test/events/events.protected-filters.test.ts",
  "test/http/version-tags.test.ts",
  "test/ical/ical.cli.test.ts",
  "test/ical/ical.export.test.ts",
  "test/ical/ical.import.recurrence.test.ts",
  "test/ical/series.import.test.ts",
  "test/languages/translations.test.ts",
  "test/rest/scalar-params.test.ts",
];

/** What marks a test file as one that needs a database (directly, or through a shared suite). */
const USES_DATABASE = /\bPROVIDERS\b|useTestServer|useTestDatabase|createTestDatabase|\/suites\//;

/** The test files of a package (relative to it): the slow ones, and the others split by their need of a database. */
function testFilesOf(root: string, include: readonly string[]) {
  const files = include
    .map((pattern) => pattern.split("/")[0] ?? "")
    .filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".test.ts") && !file.includes("node_modules"))
        .map((file) => join(dir, file)),
    );
  const fast = files.filter((file) => !SLOW.test(file));
  const database = fast.filter((file) => USES_DATABASE.test(readFileSync(join(root, file), "utf8")));
  return {
    slow: files.filter((file) => SLOW.test(file)),
    database,
    pure: fast.filter((file) => !database.includes(file)),
  };
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
 * The projects: `unit:*` (no database), `sqlite:*` and `postgres:*`, `slow:*`. The sqlite projects run every data
 * file on SQLite; the postgres ones run the core's data files and the API's `ON_POSTGRES_TOO`, only the tests of
 * their database (named "(… postgres)" by `describe.each(PROVIDERS)`), so a test that names no database runs once,
 * in the sqlite project.
 *
 * The files of these projects share no state but their databases' templates (each file or `describe` makes its own
 * database and server), so a worker runs them all in one module graph instead of importing the app anew for each
 * (`isolate: false`: 25 HTTP files took 129 s instead of 327 s, 30 s of imports instead of 207). The slow files,
 * which change the environment and spawn processes, keep a graph each.
 */
const SHARING_MODULES = { isolate: false };
const ON_SQLITE = { ...SHARING_MODULES, env: { CALENDAR_TEST_PROVIDERS: "sqlite" } };
const ON_POSTGRES = {
  ...SHARING_MODULES,
  env: { CALENDAR_TEST_PROVIDERS: "postgres" },
  testNamePattern: /[(, ]postgres\)/,
};

export default defineConfig({
  test: {
    projects: [
      project(coreConfig, "packages/core", "unit:core", coreFiles.pure, SHARING_MODULES),
      project(apiConfig, "apps/api", "unit:api", apiFiles.pure, SHARING_MODULES),
      "packages/client",
      project(coreConfig, "packages/core", "sqlite:core", coreFiles.database, ON_SQLITE),
      project(apiConfig, "apps/api", "sqlite:api", apiFiles.database, ON_SQLITE),
      project(coreConfig, "packages/core", "postgres:core", coreFiles.database, ON_POSTGRES),
      project(apiConfig, "apps/api", "postgres:api", ON_POSTGRES_TOO, {
        ...ON_POSTGRES,
        exclude: [...apiFiles.pure, ...apiFiles.slow],
      }),
      project(apiConfig, "apps/api", "slow:api", apiFiles.slow),
      ...(coreFiles.slow.length ? [project(coreConfig, "packages/core", "slow:core", coreFiles.slow)] : []),
      "packages/migrate",
    ],
    // Both cores of a two-core machine (vitest's default leaves one free).
    maxWorkers: availableParallelism(),
    reporters: ["default", new SlowestFilesReporter(), new SummaryLineReporter()],
  },
});

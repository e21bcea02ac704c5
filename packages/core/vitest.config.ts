import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Lists the statements sent to PostgreSQL when CALENDAR_TEST_SQL_LOG names a folder.
    setupFiles: ["./src/testing/sql-log.ts"],
  },
});

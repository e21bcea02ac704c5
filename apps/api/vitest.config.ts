import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Workspace packages that publish a build (@calendar/client) are tested from their sources.
  ssr: { resolve: { conditions: ["@calendar/source", ...defaultServerConditions] } },
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Lists the statements sent to PostgreSQL when CALENDAR_TEST_SQL_LOG names a folder.
    setupFiles: ["../../packages/core/src/testing/sql-log.ts"],
  },
});

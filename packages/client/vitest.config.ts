import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "unit:client",
    include: ["test/**/*.test.ts"],
    // `*.test-d.ts` files are type tests: tsc checks them, and a failed expectation fails the run. The quick loop
    // (`pnpm test:quick`) turns them off: `pnpm typecheck` checks the same files with the same tsc.
    typecheck: {
      enabled: process.env.CALENDAR_TYPE_TESTS !== "off",
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
  },
});

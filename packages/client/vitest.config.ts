import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "unit:client",
    include: ["test/**/*.test.ts"],
    // `*.test-d.ts` files are type tests: tsc checks them, and a failed expectation fails the run.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});

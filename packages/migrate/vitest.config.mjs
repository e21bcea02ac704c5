import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "slow:migrate",
    include: ["test/**/*.test.mjs"],
    // Each test drives real databases and the wasm engine, some through the Prisma CLI (a few seconds each).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});

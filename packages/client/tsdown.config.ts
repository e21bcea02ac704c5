import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts"],
  format: "esm",
  platform: "node",
  // The router's types are bundled from the core's sources (resolved by `paths`, so that tsc emits them);
  // `stripInternal` leaves out the server context and the REST metadata they carry (marked `@internal`), so the
  // declarations reference neither the core nor Prisma.
  tsconfig: "tsconfig.build.json",
  checks: { pluginTimings: false },
  failOnWarn: true,
});

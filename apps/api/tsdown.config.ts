import { defineConfig } from "tsdown";

/**
 * The production build the benchmark runs (`dist/main.mjs`, and the benchmark's limit server): the server with the
 * core bundled in (it ships as TypeScript). Native and file-reading packages stay external: better-sqlite3 (a
 * native addon), pg (optional native bindings) and @calendar/migrate (reads the migrations next to its sources).
 */
export default defineConfig({
  entry: { main: "src/main.ts", "limit-server": "bench/limit-server.ts", "floor-server": "bench/floor-server.ts" },
  format: "esm",
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: true,
  dts: false,
  deps: {
    neverBundle: [/^better-sqlite3(\/|$)/, /^pg(\/|$)/, /^@calendar\/migrate$/],
    alwaysBundle: (id) => !/^(better-sqlite3|pg|@calendar\/migrate)(\/|$)/.test(id),
    onlyBundle: false,
  },
  checks: { pluginTimings: false },
});

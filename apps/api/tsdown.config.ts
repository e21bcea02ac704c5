import { defineConfig } from "tsdown";

/**
 * The production build the benchmark runs (`dist/main.mjs`, with `dist/migrate.child.mjs` it starts to apply
 * pending migrations, and the benchmark's limit server): the server with the
 * core bundled in (it ships as TypeScript). Native and file-reading packages stay external: better-sqlite3 (a
 * native addon), pg (optional native bindings), @calendar/migrate (reads the migrations next to its sources) and
 * @touch4it/ical-timezones (reads its VTIMEZONE files next to its sources).
 */
export default defineConfig({
  entry: {
    main: "src/main.ts",
    "migrate.child": "src/migrate.child.ts",
    "limit-server": "bench/limit-server.ts",
    "floor-server": "bench/floor-server.ts",
    "bare-server": "bench/bare-server.ts",
    "outbox-server": "bench/outbox-server.ts",
  },
  format: "esm",
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: true,
  dts: false,
  deps: {
    neverBundle: [/^better-sqlite3(\/|$)/, /^pg(\/|$)/, /^@calendar\/migrate$/, /^@touch4it\/ical-timezones$/],
    alwaysBundle: (id) => !/^(better-sqlite3|pg|@calendar\/migrate|@touch4it\/ical-timezones)(\/|$)/.test(id),
    onlyBundle: false,
  },
  // trpc-to-openapi imports openapi3-ts, which imports `yaml` for a method we never call: the import is unused, but
  // yaml is CommonJS, so without this the bundle would still run its ~70 modules at start.
  treeshake: { moduleSideEffects: [{ test: /[\\/]node_modules[\\/].pnpm[\\/]yaml@/, sideEffects: false }] },
  checks: { pluginTimings: false },
});

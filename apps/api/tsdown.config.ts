import { defineConfig, type Rolldown } from "tsdown";

/** `\uXXXX` for one UTF-16 code unit. */
const escapeUnit = (unit: number) => `\\u${unit.toString(16).padStart(4, "0")}`;

/**
 * V8 keeps a module's source for as long as the module lives, as one-byte (Latin-1) text unless one character is
 * beyond it: then the whole chunk takes two bytes a character. The few such characters (zod's messages in other
 * languages, iconv-lite's tables, box drawing in Fastify's route printer) are written as escapes instead, which
 * mean the same in strings, templates, regular expressions and comments (the bundle has no tagged template that
 * would read them raw): 4–5 MB less heap at start.
 */
const latin1Source: Rolldown.Plugin = {
  name: "latin1-source",
  generateBundle(_, bundle) {
    for (const output of Object.values(bundle)) {
      if (output.type === "chunk")
        output.code = output.code.replace(/[^\u0000-\u00ff]/g, (char) => escapeUnit(char.charCodeAt(0)));
    }
  },
};

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
  // Comments stay out of the sources V8 keeps in memory (the bundle has no source map that would need their lines).
  outputOptions: { comments: false },
  plugins: [latin1Source],
  checks: { pluginTimings: false },
});

import { defineConfig, type Rolldown } from "tsdown";

/**
 * `code` with every character beyond Latin-1 written as a `\uXXXX` escape of its UTF-16 units. V8 keeps a module's
 * source for as long as the module lives, as one-byte text unless one character is beyond Latin-1: then the whole
 * chunk takes two bytes a character. The escapes mean the same in strings, templates, regular expressions, comments
 * and identifiers (of the Basic Multilingual Plane); only a tagged template reading its raw text would differ, and
 * the bundle has none.
 */
export function toLatin1(code: string): string {
  return code.replace(/[\u0100-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The chunks in Latin-1 (`toLatin1`): the few characters beyond it (zod's messages in other languages, iconv-lite's
 * tables, Fastify's route printer) made the src, server, fastify and ical chunks two-byte, 7–8 MB of the 28 MB live
 * heap at listening. Done on the finished chunks, since the comment removal prints string literals again.
 */
const latin1Source: Rolldown.Plugin = {
  name: "latin1-source",
  generateBundle(_, bundle) {
    for (const output of Object.values(bundle)) {
      if (output.type === "chunk") output.code = toLatin1(output.code);
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

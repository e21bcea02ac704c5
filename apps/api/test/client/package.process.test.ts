import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROVIDERS } from "@calendar/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { type CommandResult, REPO_ROOT, runCommand, succeeded } from "./commands.ts";
import { addressedTo, clientExample } from "./readme-examples.ts";

/**
 * The published client as an app gets it: built, packed with npm, installed from the tarball into a project outside
 * the workspace (with its peers from the registry), type-checked with tsc and run against a live server. The app
 * is `fixtures/package-consumer/consumer.ts` and the README's `trpc-client` example.
 */
const CLIENT_DIR = join(REPO_ROOT, "packages/client");
const FIXTURES = new URL("./fixtures/", import.meta.url);
const README_EXAMPLE = clientExample("trpc-client");
/** The tarball `pnpm build` leaves (the client's README installs it), the one the consumer project installs. */
const BUILT_TARBALL = join(CLIENT_DIR, "tarball", "calendar-client-0.1.0.tgz");
const versionOf = (name: string): string =>
  (createRequire(join(CLIENT_DIR, "package.json"))(`${name}/package.json`) as { version: string }).version;

interface PackedFile {
  path: string;
}

let project = "";
let packedFiles: string[] = [];
let typecheck: CommandResult | undefined;

beforeAll(async () => {
  succeeded(await runCommand("pnpm", ["--filter", "@calendar/client", "build"], { cwd: REPO_ROOT }), "The build");
  project = await mkdtemp(join(tmpdir(), "calendar-client-consumer-"));
  const pack = succeeded(
    await runCommand("npm", ["pack", "--json", "--pack-destination", project], { cwd: CLIENT_DIR }),
    "npm pack",
  );
  const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; files: PackedFile[] }>;
  if (!packed) throw new Error(`npm pack printed no package: ${pack.stdout}`);
  packedFiles = packed.files.map((file) => file.path).sort();

  await writeFile(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  succeeded(
    await runCommand(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        BUILT_TARBALL,
        `@trpc/client@${versionOf("@trpc/client")}`,
        `@trpc/server@${versionOf("@trpc/server")}`,
        `typescript@${versionOf("typescript")}`,
        `@types/node@${versionOf("@types/node")}`,
      ],
      { cwd: project },
    ),
    "npm install",
  );
  for (const file of ["package-consumer/consumer.ts", "package-consumer/tsconfig.json", "main.mjs"]) {
    await cp(new URL(file, FIXTURES), join(project, file.split("/").at(-1) ?? file));
  }
  await writeFile(join(project, "readme.ts"), README_EXAMPLE.code);
  typecheck = await runCommand(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", "."], {
    cwd: project,
  });
}, 180_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe("the packed @calendar/client", () => {
  it("is the tarball pnpm build leaves in packages/client/tarball, which git, and so turbo, ignores", async () => {
    const manifest = JSON.parse(await readFile(join(CLIENT_DIR, "package.json"), "utf8")) as { version: string };
    expect(BUILT_TARBALL.endsWith(`calendar-client-${manifest.version}.tgz`)).toBe(true);
    const ignored = await runCommand("git", ["check-ignore", "--quiet", BUILT_TARBALL], { cwd: REPO_ROOT });
    expect(ignored.code).toBe(0);
    const stray = await runCommand("git", ["check-ignore", "--quiet", join(CLIENT_DIR, "calendar-client-0.1.0.tgz")], {
      cwd: REPO_ROOT,
    });
    expect(stray.code).toBe(0);
  });

  it("holds the manifest, the readme and the build, nothing else", () => {
    expect(packedFiles).toEqual(["README.md", "dist/index.d.mts", "dist/index.mjs", "package.json"]);
  });

  it("declares its types with imports of @trpc/client and @trpc/server only, never of the core or Prisma", async () => {
    const declarations = await readFile(join(project, "node_modules/@calendar/client/dist/index.d.mts"), "utf8");
    const specifiers = [...declarations.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((match) => match[1]);
    expect([...new Set(specifiers)].sort()).toEqual(["@trpc/client", "@trpc/server"]);
    const code = declarations.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    expect(code).not.toMatch(/@calendar\/core|@prisma|PrismaClient|\bDb\b|trpc-to-openapi|zod/);
  });

  it("imports @trpc/client and @trpc/server at run time only", async () => {
    const code = await readFile(join(project, "node_modules/@calendar/client/dist/index.mjs"), "utf8");
    const specifiers = [...code.matchAll(/from\s*"([^"]+)"/g)].map((match) => match[1]);
    expect([...new Set(specifiers)].sort()).toEqual(["@trpc/client", "@trpc/server/observable"]);
  });

  it("type-checks apps against the installed package (including lines that must fail)", () => {
    expect(typecheck).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe.each(PROVIDERS)("the installed @calendar/client against a live server (%s)", (provider) => {
  const server = useTestServer(provider);

  it("creates, lists and fails with CalendarClientError codes and statuses", async () => {
    const run = succeeded(
      await runCommand(process.execPath, ["main.mjs", server.origin, server.users.editor.token], { cwd: project }),
      "The consumer",
    );
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toEqual({
      category: { name: "Jazz", language: "fr" },
      created: { title: "Concert", categories: ["Jazz"] },
      inFrench: { ids: [outcome.inFrench.expected], total: 1, expected: expect.any(Number) },
      inGerman: 0,
      forbidden: { code: "rest_forbidden", status: 401, params: null },
      missing: { code: "rest-event-not-found", status: 404, params: null },
      invalid: { code: "rest_invalid_param", status: 400, params: { per_page: expect.any(String) } },
    });
  });

  it("runs the README's example as it shows", async () => {
    const compiled = await readFile(join(project, "out/readme.js"), "utf8");
    const example = join(project, `out/readme-${provider}.js`);
    await writeFile(example, addressedTo(compiled, server.origin));
    const run = succeeded(
      await runCommand(process.execPath, [example], { cwd: project, env: { TOKEN: server.users.editor.token } }),
      "The README's example",
    );
    expect(run.stdout.trimEnd().split("\n")).toEqual(README_EXAMPLE.prints);
  });
});

import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROVIDERS } from "@calendar/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiDocument } from "../rest/api-document.ts";
import { useTestServer } from "../support/server.ts";
import { API_DIR, type CommandResult, REPO_ROOT, runCommand, succeeded, TSC } from "./commands.ts";
import { addressedTo, clientExample } from "./readme-examples.ts";

/**
 * The REST-only path of the README: `pnpm --filter @calendar/api openapi` writes openapi.json, openapi-typescript
 * turns it into types, and openapi-fetch apps (`fixtures/rest-consumer/consumer.ts` and the README's
 * `openapi-fetch` example) are type-checked with tsc and run against a live server.
 */
const FIXTURES = new URL("./fixtures/", import.meta.url);
const README_EXAMPLE = clientExample("openapi-fetch");
const DOCUMENT = join(API_DIR, "openapi.json");

let project = "";
let written: CommandResult | undefined;
let typecheck: CommandResult | undefined;

beforeAll(async () => {
  written = await runCommand("pnpm", ["--filter", "@calendar/api", "openapi"], { cwd: REPO_ROOT });
  project = await mkdtemp(join(tmpdir(), "calendar-rest-consumer-"));
  succeeded(
    await runCommand("pnpm", ["exec", "openapi-typescript", DOCUMENT, "-o", join(project, "calendar-api.d.ts")], {
      cwd: API_DIR,
    }),
    "openapi-typescript",
  );
  for (const file of ["rest-consumer/consumer.ts", "rest-consumer/tsconfig.json", "main.mjs"]) {
    await cp(new URL(file, FIXTURES), join(project, file.split("/").at(-1) ?? file));
  }
  await writeFile(join(project, "readme.ts"), README_EXAMPLE.code);
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "rest-app", private: true, type: "module" }));
  // The app resolves openapi-fetch from the api package's dependencies.
  await symlink(join(API_DIR, "node_modules"), join(project, "node_modules"), "dir");
  typecheck = await runCommand(process.execPath, [TSC, "-p", "."], { cwd: project });
}, 120_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe("pnpm --filter @calendar/api openapi", () => {
  it("writes apps/api/openapi.json", () => {
    expect(written?.code).toBe(0);
    expect(written?.stdout).toContain(`Wrote ${DOCUMENT}`);
  });

  it("type-checks openapi-fetch apps against the generated types (including lines that must fail)", () => {
    expect(typecheck).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe.each(PROVIDERS)("the document and the openapi-fetch app against a live server (%s)", (provider) => {
  const server = useTestServer(provider);

  it("is the document /cal/events/v1/doc serves, with server URLs relative to the host", async () => {
    const file: ApiDocument = JSON.parse(await readFile(DOCUMENT, "utf8"));
    const served = await server.rest<ApiDocument>("GET", "/cal/events/v1/doc");
    expect(served.status).toBe(200);
    expect({ ...file, servers: [] }).toEqual({ ...served.body, servers: [] });
    expect(file.servers?.map((entry) => entry.url)).toEqual(["/cal/events/v1/", "/{language}/cal/events/v1/"]);
  });

  it("lists with categories, creates with 201 and reads a 404 as the Error schema", async () => {
    const run = succeeded(
      await runCommand(process.execPath, ["main.mjs", server.origin, server.users.editor.token], { cwd: project }),
      "The openapi-fetch app",
    );
    expect(JSON.parse(run.stdout)).toEqual({
      created: { status: 201, title: "Jazz night", categories: ["Jazz"] },
      listed: { status: 200, titles: ["Jazz night"], total: 1, totalHeader: "1" },
      missing: { status: 404, error: { code: "rest-event-not-found", status: 404 }, data: null },
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

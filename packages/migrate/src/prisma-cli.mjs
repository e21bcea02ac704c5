// Runs the stock Prisma CLI with the wasm schema-engine shim in place of the native binary, which cannot be
// downloaded here (even `prisma generate` insists on PRISMA_SCHEMA_ENGINE_BINARY pointing at an existing file).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const shimPath = fileURLToPath(new URL("../bin/schema-engine-shim.mjs", import.meta.url));

const prismaCliPath = path.join(
  path.dirname(createRequire(import.meta.url).resolve("prisma/package.json")),
  "build",
  "index.js",
);

/**
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, cwd?: string, capture?: boolean }} [options]
 *   capture: collect stdout/stderr instead of passing them through.
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>}
 */
export function runPrismaCli(args, { env = {}, cwd = process.cwd(), capture = false } = {}) {
  const child = spawn(process.execPath, [prismaCliPath, ...args], {
    cwd,
    env: {
      ...process.env,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      CHECKPOINT_DISABLE: "1",
      ...env,
      PRISMA_SCHEMA_ENGINE_BINARY: shimPath,
    },
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  const output = { stdout: "", stderr: "" };
  child.stdout?.on("data", (chunk) => {
    output.stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output.stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), ...output }));
  });
}

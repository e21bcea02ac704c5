import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../..", import.meta.url));
export const API_DIR = fileURLToPath(new URL("../..", import.meta.url));

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (never rejects: the exit code is part of the result). */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: { ...process.env, ...options.env }, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Fails with the command's output when it did not succeed. */
export function succeeded(result: CommandResult, what: string): CommandResult {
  if (result.code !== 0) throw new Error(`${what} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** TypeScript's compiler as installed in the workspace. */
export const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

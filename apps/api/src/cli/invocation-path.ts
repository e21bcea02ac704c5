import { resolve } from "node:path";

/**
 * A path given on the command line, read from the directory the command was run in: `pnpm calendar` runs the CLI
 * in `apps/api`, and pnpm (like npm) tells the directory it was started from in `INIT_CWD`.
 */
export function invocationPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.INIT_CWD ?? process.cwd(), path);
}

/** Why a file could not be read, in a few words for one line of the terminal. */
export function readFailure(error: unknown): string {
  const code = error instanceof Error && "code" in error ? error.code : undefined;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "it is a directory";
  if (code === "EACCES") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}

/**
 * Start-up memory of the production server (issue 25): starts `dist/main.mjs` (build it first: `pnpm build`) on a
 * database, waits until /healthz answers, and reads the process's resident set (VmRSS) then and one second later
 * (when the workers have run their first queries).
 *
 *   pnpm --filter @calendar/api exec node --import tsx bench/startup-memory.ts [DATABASE_URL …]
 *
 * Without an argument it measures a new, empty SQLite database. The benchmark's report calls `startupRss`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { rssMb } from "./load.ts";
import { startServer } from "./processes.ts";

const MAIN = fileURLToPath(new URL("../dist/main.mjs", import.meta.url));
const SETTLE_MS = 1_000;

/** RSS of the production server on `url` when it answers /healthz, and one second later. */
export async function startupRss(
  url: string,
  env: Record<string, string> = {},
): Promise<{ listeningMb: number; afterOneSecondMb: number }> {
  const server = await startServer(
    MAIN,
    { NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: url, ...env },
    "/healthz",
  );
  try {
    const listeningMb = rssMb(server.pid);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { listeningMb, afterOneSecondMb: rssMb(server.pid) };
  } finally {
    await server.stop();
  }
}

async function main(urls: string[]): Promise<void> {
  const scratch = urls.length === 0 ? mkdtempSync(join(tmpdir(), "calendar-startup-")) : undefined;
  const targets = scratch ? [`file:${join(scratch, "empty.db")}`] : urls;
  try {
    for (const url of targets) {
      const { listeningMb, afterOneSecondMb } = await startupRss(url);
      console.log(`${url}: listening ${listeningMb.toFixed(0)} MB, one second later ${afterOneSecondMb.toFixed(0)} MB`);
    }
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));

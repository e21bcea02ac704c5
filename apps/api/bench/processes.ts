import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";

/** A server process the benchmark started: its origin and pid (for the RSS samples). */
export interface RunningServer {
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === "string") throw new Error("No free port.");
  return address.port;
}

async function waitUntilAnswering(origin: string, path: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}.`);
    try {
      const response = await fetch(`${origin}${path}`);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${origin} did not answer within a minute.`);
}

/**
 * The runtime settings of `pnpm start` (scripts/start.sh: keep both the same), given to every server the benchmark
 * starts so that it measures what production runs: a young generation of 1 MB semi-spaces instead of V8's 16 MB,
 * two glibc malloc arenas instead of one per thread with a fixed trim and mmap threshold of 128 KiB (glibc raises
 * both as large blocks are freed, and then keeps freed memory resident), and the old generation collected once it has doubled since
 * the last full collection instead of letting it grow up to fourfold (docs/performance.md, "Memory (issue 25)").
 */
export const PRODUCTION_NODE_OPTIONS = ["--max-semi-space-size=1", "--heap-growing-percent=100"];
export const PRODUCTION_ENV = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_TRIM_THRESHOLD_: "131072",
  MALLOC_MMAP_THRESHOLD_: "131072",
};

/** Starts `node <script>` with the environment, on a free port, and waits until `readyPath` answers. */
export async function startServer(
  script: string,
  env: Record<string, string>,
  readyPath: string,
  nodeOptions: string[] = [],
): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...PRODUCTION_NODE_OPTIONS, ...nodeOptions, script], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...PRODUCTION_ENV, ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(origin, readyPath, child);
  const pid = child.pid;
  if (pid === undefined) throw new Error("The server has no pid.");
  return {
    origin,
    pid,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

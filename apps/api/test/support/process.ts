import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createUser, type Provider, type Role } from "@calendar/core";
import { useTestDatabase } from "@calendar/core/testing";
import { afterAll, beforeAll } from "vitest";

const API_DIR = fileURLToPath(new URL("../..", import.meta.url));

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript entry point of the api app (as `pnpm start`/`pnpm calendar` do, through tsx). */
export function runEntry(entry: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", entry, ...args], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Starts the server process and resolves with its address once it listens. */
export function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        child.stdout?.off("data", onData);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

/** A server process (`src/main.ts`) and the origin it answers on. */
export interface ServerInstance {
  origin: string;
  child: ChildProcess;
}

/** Starts the server on `databaseUrl` at a free port (it logs its address at start). */
export async function startServerInstance(databaseUrl: string): Promise<ServerInstance> {
  const child = runEntry("src/main.ts", [], { DATABASE_URL: databaseUrl, PORT: "0", LOG_LEVEL: "info" });
  return { origin: await listening(child), child };
}

/** Stops each started instance with SIGTERM and waits for it to exit. */
export async function stopServerInstances(instances: ReadonlyArray<ServerInstance | undefined>): Promise<void> {
  for (const instance of instances) {
    if (!instance) continue;
    const done = finished(instance.child);
    instance.child.kill("SIGTERM");
    await done;
  }
}

/**
 * Two server processes on one fresh database, started before the file's tests and stopped after them, and the
 * `Authorization` header of a user of `role` who writes through either.
 */
export function useServerPair(provider: Provider, role: Role = "editor") {
  const database = useTestDatabase(provider);
  let instances: [ServerInstance, ServerInstance] | undefined;
  let authorization = "";

  beforeAll(async () => {
    const writer = await createUser(database.current.handle.db, { login: `pair-${role}`, role });
    authorization = `Bearer ${writer.token}`;
    instances = await Promise.all([
      startServerInstance(database.current.url),
      startServerInstance(database.current.url),
    ]);
  });
  afterAll(() => stopServerInstances(instances ?? []));

  const started = () => {
    if (!instances) throw new Error("The server processes start in beforeAll.");
    return instances;
  };
  return {
    get first() {
      return started()[0];
    },
    get second() {
      return started()[1];
    },
    get authorization() {
      return authorization;
    },
  };
}

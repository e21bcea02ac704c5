import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import type { Provider, Role } from "@calendar/core";
import { createUsersByRole, type TestUser, useTestDatabase } from "@calendar/core/testing";
import { afterAll, beforeAll } from "vitest";
import { type Finished, finished, runEntry } from "../../support/process.ts";

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

async function untilReady(origin: string, exit: Promise<Finished>): Promise<void> {
  let exited: Finished | undefined;
  void exit.then((result) => {
    exited = result;
  });
  for (;;) {
    if (exited) throw new Error(`The server exited with ${exited.code}:\n${exited.stderr}`);
    const ready = await fetch(`${origin}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The server as `pnpm start` runs it (`src/main.ts`, its own process, so that it has a core of its own while the
 * test generates and checks requests), over a fresh database of one kind with a user per role. The test keeps a
 * connection to the same database, to inspect it.
 */
export function useServerProcess(provider: Provider) {
  const database = useTestDatabase(provider);
  let child: ChildProcess | undefined;
  let exit: Promise<Finished> | undefined;
  let origin = "";
  let users: Record<Role, TestUser> | undefined;

  beforeAll(async () => {
    users = await createUsersByRole(database.current.handle.db);
    const port = await freePort();
    child = runEntry("src/main.ts", [], {
      DATABASE_URL: database.current.url,
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      CALENDAR_RATE_LIMIT: "0",
      // So that a webhook may point at a closed local port (`http://127.0.0.1:9/…`): an https:// URL needs a name
      // that resolves to a public address, which a machine without DNS has none of.
      CALENDAR_WEBHOOKS_ALLOW_INSECURE: "true",
    });
    exit = finished(child);
    origin = `http://127.0.0.1:${port}`;
    await untilReady(origin, exit);
  });
  afterAll(async () => {
    child?.kill("SIGTERM");
    await exit;
  });

  return {
    get origin() {
      return origin;
    },
    get database() {
      return database.current;
    },
    get users(): Record<Role, TestUser> {
      if (!users) throw new Error("Users are created in beforeAll.");
      return users;
    },
  };
}

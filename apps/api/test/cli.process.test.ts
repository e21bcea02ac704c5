import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { authenticateToken, createEventsInBulk, type Provider } from "@calendar/core";
import { PROVIDERS, testScope, useTestDatabase } from "@calendar/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createProgram } from "../src/cli/program.ts";
import { finished, runEntry } from "./support/process.ts";

function calendarProcess(databaseUrl: string, ...args: string[]) {
  return finished(runEntry("src/cli/main.ts", args, { DATABASE_URL: databaseUrl }));
}

describe("calendar --version", { timeout: 180_000 }, () => {
  it("prints the version", async () => {
    const result = await calendarProcess("file:/nonexistent/never.db", "--version");
    expect(result).toEqual({ code: 0, stdout: "0.1.0\n", stderr: "" });
  });
});

/** Each command is a Node process that compiles the CLI with tsx: seconds each on a busy machine. */
const PROCESS_TIMEOUT = { timeout: 180_000 };

describe.each(PROVIDERS)("the calendar CLI process: users and tokens (%s)", PROCESS_TIMEOUT, (provider: Provider) => {
  const database = useTestDatabase(provider);
  const run = (...args: string[]) => calendarProcess(database.current.url, ...args);

  it("changes a user's role with users set-role", async () => {
    expect((await run("users", "create", "--login", "role-user", "--role", "author")).code).toBe(0);
    expect(await run("users", "set-role", "--login", "role-user", "--role", "editor")).toEqual({
      code: 0,
      stdout: '"role-user" is now editor (was author).\n',
      stderr: "",
    });
    const user = await database.current.handle.db.user.findUniqueOrThrow({ where: { login: "role-user" } });
    expect(user.role).toBe("editor");
  });

  it("deletes a user who owns nothing, with its tokens", async () => {
    const issued = JSON.parse((await run("users", "create", "--login", "leaver", "--role", "author", "--json")).stdout);
    expect(await run("users", "delete", "--login", "leaver")).toEqual({
      code: 0,
      stdout: 'Deleted "leaver".\n',
      stderr: "",
    });
    const db = database.current.handle.db;
    expect(await db.user.count({ where: { login: "leaver" } })).toBe(0);
    await expect(authenticateToken(db, issued.token)).rejects.toMatchObject({ status: 401 });
  });

  it("refuses to delete a user who owns events without --reassign, and hands them to an administrator with it", async () => {
    const db = database.current.handle.db;
    expect((await run("users", "create", "--login", "owner", "--role", "author")).code).toBe(0);
    expect((await run("users", "create", "--login", "heir", "--role", "administrator")).code).toBe(0);
    const owner = await db.user.findUniqueOrThrow({ where: { login: "owner" } });
    const heir = await db.user.findUniqueOrThrow({ where: { login: "heir" } });
    const ownerActor = { kind: "user", id: owner.id, login: "owner", role: "author" } as const;
    const [eventId] = await createEventsInBulk(testScope(database.current, ownerActor), [
      { title: "Owned", start_date: "2030-01-01 10:00:00", end_date: "2030-01-01 12:00:00" },
    ]);

    const refused = await run("users", "delete", "--login", "owner");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'error: "owner" owns 1 event(s), 0 venue(s) and 0 organizer(s); give --reassign <administrator login> to hand them over.\n',
    );
    expect(await db.user.count({ where: { login: "owner" } })).toBe(1);

    const notAdmin = await run("users", "delete", "--login", "owner", "--reassign", "role-user");
    expect(notAdmin.stderr).toBe('error: --reassign must name another administrator; "role-user" is not.\n');

    expect(await run("users", "delete", "--login", "owner", "--reassign", "heir")).toEqual({
      code: 0,
      stdout: 'Deleted "owner". 1 event(s), 0 venue(s) and 0 organizer(s) now belong to "heir".\n',
      stderr: "",
    });
    expect((await db.event.findUniqueOrThrow({ where: { id: eventId ?? 0 } })).authorId).toBe(heir.id);
  });

  it("names the ids in tokens create --json unmistakably and revokes by --token-id", async () => {
    const created = JSON.parse((await run("tokens", "create", "--login", "heir", "--name", "deploy", "--json")).stdout);
    const heir = await database.current.handle.db.user.findUniqueOrThrow({ where: { login: "heir" } });
    expect(created).toMatchObject({ user_id: heir.id, login: "heir", role: "administrator" });
    expect(created.token_id).not.toBe(created.user_id);
    const revoked = await run("tokens", "revoke", "--token-id", String(created.token_id));
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(
      new RegExp(`^Revoked 1 token:\\n  token ${created.token_id} of "heir", "deploy", created `),
    );
    await expect(authenticateToken(database.current.handle.db, created.token)).rejects.toMatchObject({ status: 401 });
  });

  it("asks before revoking on a terminal, and revokes nothing when the answer is no", async () => {
    const created = JSON.parse((await run("tokens", "create", "--login", "heir", "--name", "kept", "--json")).stdout);
    let stdout = "";
    const questions: string[] = [];
    const program = createProgram(
      {
        out: (text) => {
          stdout += text;
        },
        err: () => undefined,
        confirm: async (question) => {
          questions.push(question);
          return false;
        },
      },
      { DATABASE_URL: database.current.url },
    );
    await program.parseAsync(["tokens", "revoke", "--token-id", String(created.token_id)], { from: "user" });
    expect(questions).toEqual(["Revoke it?"]);
    expect(stdout).toMatch(/^To revoke:\n {2}token \d+ of "heir", "kept", created .*\nNothing revoked\.\n$/);
    expect(await authenticateToken(database.current.handle.db, created.token)).toMatchObject({ login: "heir" });
  });
});

describe("the calendar CLI process: the SQLite file it uses", PROCESS_TIMEOUT, () => {
  const dir = mkdtempSync(join(tmpdir(), "calendar-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a read command on a SQLite file that does not exist, creating nothing", async () => {
    const file = join(dir, "missing.db");
    const result = await calendarProcess(`file:${file}`, "users", "list");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: No database at ${file}. Set DATABASE_URL to the server's database (relative paths are relative to the repository root).\n`,
    );
    expect(existsSync(file)).toBe(false);
  });

  it("says so when a write command creates a new SQLite database", async () => {
    const file = join(dir, "new.db");
    const result = await calendarProcess(`file:${file}`, "users", "create", "--login", "first", "--role", "editor");
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Creating a new, empty SQLite database at ${file}.\n`);
    expect(existsSync(file)).toBe(true);
  });
});

describe.each(PROVIDERS)("pnpm calendar import, as the README shows it (%s)", PROCESS_TIMEOUT, (provider: Provider) => {
  const database = useTestDatabase(provider);
  const root = fileURLToPath(new URL("../../..", import.meta.url));
  const OUTLOOK = fileURLToPath(new URL("./ical/files/outlook.ics", import.meta.url));

  it("runs as the README shows it, pnpm calendar import from the repository's root", async () => {
    const child = spawn("pnpm", ["calendar", "import", relative(root, OUTLOOK), "--dry-run", "--json"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATABASE_URL: database.current.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const result = await finished(child);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    const json = result.stdout.trim().split("\n").at(-1) ?? "";
    expect(JSON.parse(json).created).toHaveLength(1);
    const missing = await finished(
      spawn("pnpm", ["calendar", "import", "calendar.ics"], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATABASE_URL: database.current.url },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({
      code: 1,
      stderr: `error: cannot read ${root.replace(/\/$/, "")}/calendar.ics: no such file.\n`,
    });
  });
});

describe("pnpm --silent calendar (the documented command)", () => {
  const database = useTestDatabase("sqlite");
  const root = fileURLToPath(new URL("../../..", import.meta.url));

  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn("pnpm", ["--silent", "calendar", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: database.current.url },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  }

  it("prints exactly one JSON object for users create --json", async () => {
    const result = await run(["users", "create", "--login", "cli", "--role", "administrator", "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ login: "cli", role: "administrator" });
  });

  it("exits non-zero with a message for a bad role", async () => {
    const result = await run(["users", "create", "--login", "x", "--role", "king"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("Must be one of");
  });
});

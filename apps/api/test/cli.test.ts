import { authenticateToken, type Provider } from "@calendar/core";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { createProgram } from "../src/cli/program.ts";

async function calendar(databaseUrl: string, ...args: string[]) {
  let stdout = "";
  let stderr = "";
  const program = createProgram(
    {
      out: (text) => {
        stdout += text;
      },
      err: (text) => {
        stderr += text;
      },
    },
    { DATABASE_URL: databaseUrl },
  );
  let failure: unknown;
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (error) {
    failure = error;
  }
  return { stdout, stderr, failure };
}

describe.each(PROVIDERS)("the calendar CLI (%s)", (provider: Provider) => {
  const database = useTestDatabase(provider);

  it("creates a user and prints its token once as JSON; the token authenticates", async () => {
    const { stdout } = await calendar(
      database.current.url,
      "users",
      "create",
      "--login",
      "ed",
      "--role",
      "editor",
      "--json",
    );
    const issued = JSON.parse(stdout);
    expect(Object.keys(issued)).toEqual(["id", "login", "role", "token"]);
    expect(issued).toMatchObject({ login: "ed", role: "editor" });
    expect(await authenticateToken(database.current.handle.db, issued.token)).toEqual({
      kind: "user",
      id: issued.id,
      login: "ed",
      role: "editor",
    });
  });

  it("prints the token with a warning in text mode", async () => {
    const { stdout } = await calendar(database.current.url, "users", "create", "--login", "au", "--role", "author");
    expect(stdout).toMatch(/^Created author "au" \(id \d+\)\.\nToken \(shown once, keep it safe\): cal_[\w-]{43}\n$/);
  });

  it("lists users without their tokens", async () => {
    const { stdout } = await calendar(database.current.url, "users", "list", "--json");
    const users = JSON.parse(stdout);
    expect(users.map((user: { login: string }) => user.login)).toEqual(["ed", "au"]);
    expect(stdout).not.toContain("cal_");
  });

  it("issues and revokes tokens", async () => {
    const created = JSON.parse(
      (await calendar(database.current.url, "tokens", "create", "--login", "ed", "--name", "ci", "--json")).stdout,
    );
    const db = database.current.handle.db;
    expect((await authenticateToken(db, created.token)).kind).toBe("user");
    expect(Object.keys(created)).toEqual(["user_id", "login", "role", "token_id", "token"]);
    const revoked = await calendar(database.current.url, "tokens", "revoke", "--token-id", String(created.token_id));
    expect(revoked.stdout).toMatch(
      new RegExp(
        `^Revoked 1 token:\\n  token ${created.token_id} of "ed", "ci", created \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\n$`,
      ),
    );
    await expect(authenticateToken(db, created.token)).rejects.toMatchObject({ status: 401 });
    expect((await calendar(database.current.url, "tokens", "revoke", "--login", "ed")).stdout).toMatch(
      /^Revoked 1 token:\n {2}token \d+ of "ed", "initial", created /,
    );
  });

  it("refuses bad arguments with clear errors", async () => {
    const badRole = await calendar(database.current.url, "users", "create", "--login", "x", "--role", "king");
    expect(badRole.stderr).toContain("Must be one of subscriber, contributor, author, editor, administrator.");
    const missing = await calendar(database.current.url, "users", "create", "--role", "editor");
    expect(missing.stderr).toContain("required option '--login <login>' not specified");
    const duplicate = await calendar(database.current.url, "users", "create", "--login", "ed", "--role", "author");
    expect(duplicate.failure).toMatchObject({
      code: "user_exists",
      message: 'A user with the login "ed" already exists.',
    });
    const badLogin = await calendar(database.current.url, "users", "create", "--login", "a b", "--role", "author");
    expect(badLogin.failure).toMatchObject({ code: "rest_invalid_param" });
    const neither = await calendar(database.current.url, "tokens", "revoke");
    expect(neither.failure).toMatchObject({ message: "Give exactly one of --token-id or --login." });
    const unknown = await calendar(database.current.url, "tokens", "create", "--login", "nobody");
    expect(unknown.failure).toMatchObject({ code: "user_not_found" });
  });

  it("reports an up-to-date database on db migrate", async () => {
    expect((await calendar(database.current.url, "db", "migrate")).stdout).toBe("The database is up to date.\n");
  });
});

import type { Provider } from "@calendar/core";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { finished, runEntry } from "../support/process.ts";

const SECRET = /whsec_[A-Za-z0-9+/]{43}=/;

/** Each command is a Node process that compiles the CLI with tsx: seconds each on a busy machine. */
describe.each(PROVIDERS)("the calendar CLI process: webhooks (%s)", { timeout: 180_000 }, (provider: Provider) => {
  const database = useTestDatabase(provider);
  const run = (env: Record<string, string>, ...args: string[]) =>
    finished(runEntry("src/cli/main.ts", ["webhooks", ...args], { DATABASE_URL: database.current.url, ...env }));
  const insecure = { CALENDAR_WEBHOOKS_ALLOW_INSECURE: "true" };

  it("creates, lists, updates, rotates the secret of and deletes a subscription", async () => {
    const created = await run(insecure, "create", "--url", "http://127.0.0.1:9/hooks", "--types", "event,tag");
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(
      /^Created webhook (\d+) for http:\/\/127\.0\.0\.1:9\/hooks\.\nSecret \(shown once, keep it safe\): whsec_\S+\n$/,
    );
    const id = Number(/webhook (\d+)/.exec(created.stdout)?.[1]);
    const stored = await database.current.handle.db.webhookSubscription.findUniqueOrThrow({ where: { id } });
    expect(created.stdout).toContain(stored.secret);
    expect(stored.types).toBe("event,tag");

    const updated = await run({}, "update", "--id", String(id), "--active", "false", "--actions", "deleted", "--json");
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      id,
      types: ["event", "tag"],
      actions: ["deleted"],
      active: false,
    });

    const listed = await run({}, "list", "--json");
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id, active: false })]);
    expect(listed.stdout).not.toMatch(SECRET);

    const rotated = await run({}, "rotate-secret", "--id", String(id));
    expect(rotated.stdout).toMatch(/^Secret \(shown once, keep it safe\): whsec_\S+\n$/);
    expect(rotated.stdout).not.toContain(stored.secret);

    expect(await run({}, "delete", "--id", String(id))).toEqual({
      code: 0,
      stdout: `Deleted webhook ${id} (http://127.0.0.1:9/hooks).\n`,
      stderr: "",
    });
    expect(await database.current.handle.db.webhookSubscription.count()).toBe(0);
  });

  it("refuses a URL to a private address unless insecure webhooks are allowed, and an unknown id", async () => {
    expect(await run({}, "create", "--url", "https://127.0.0.1/hooks")).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "error: --url: The host 127.0.0.1 resolves to a private, loopback or reserved address (CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers).\n",
    });
    expect(await run({}, "deliveries", "--id", "424242")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: No webhook subscription with this id.\n",
    });
  });
});

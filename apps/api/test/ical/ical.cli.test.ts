import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Provider } from "@calendar/core";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.ts";

const OUTLOOK = fileURLToPath(new URL("./files/outlook.ics", import.meta.url));

async function calendar(databaseUrl: string, ...args: string[]) {
  let stdout = "";
  const program = createProgram(
    {
      out: (text) => {
        stdout += text;
      },
      err: () => undefined,
    },
    { DATABASE_URL: databaseUrl, CALENDAR_TIMEZONE: "Europe/Berlin" },
  );
  await program.parseAsync(args, { from: "user" });
  return stdout;
}

describe.each(PROVIDERS)("calendar import (%s)", (provider: Provider) => {
  const database = useTestDatabase(provider);

  it("imports a file, dry or in a language, and prints the result", async () => {
    const url = database.current.url;
    const { db } = database.current.handle;
    const dry = JSON.parse(await calendar(url, "import", OUTLOOK, "--dry-run", "--json"));
    expect([dry.created.length, await db.event.count()]).toEqual([1, 0]);
    const written = JSON.parse(await calendar(url, "import", OUTLOOK, "--language", "de", "--json"));
    const [id] = written.created;
    expect(
      await db.event.findUnique({ where: { id }, select: { title: true, language: true, timezone: true } }),
    ).toEqual({ title: "Quartalsbesprechung", language: "de", timezone: "Europe/Berlin" });
    expect(await calendar(url, "import", OUTLOOK, "--language", "de")).toBe(
      "Created 0, updated 0, unchanged 1, skipped 0 (series: 0).\n",
    );
  });
});

describe.each(PROVIDERS)("calendar import's file argument (%s)", (provider: Provider) => {
  const database = useTestDatabase(provider);

  it("reads a relative path from the directory pnpm calendar was run in (INIT_CWD)", async () => {
    const saved = process.env.INIT_CWD;
    process.env.INIT_CWD = dirname(OUTLOOK);
    try {
      const dry = JSON.parse(await calendar(database.current.url, "import", "outlook.ics", "--dry-run", "--json"));
      expect(dry.created).toHaveLength(1);
    } finally {
      if (saved === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = saved;
    }
  });

  it("says in one line that a file is missing, with no stack trace, and exits with 1", async () => {
    let stderr = "";
    const program = createProgram(
      { out: () => undefined, err: (text) => (stderr += text) },
      { DATABASE_URL: database.current.url, CALENDAR_TIMEZONE: "UTC" },
    );
    const missing = fileURLToPath(new URL("./files/no-such-file.ics", import.meta.url));
    const refused = program.parseAsync(["import", missing], { from: "user" });
    await expect(refused).rejects.toBeInstanceOf(CommanderError);
    await expect(refused).rejects.toMatchObject({ exitCode: 1 });
    expect(stderr).toBe(`error: cannot read ${missing}: no such file.\n`);
  });
});

import { fileURLToPath } from "node:url";
import type { Provider } from "@calendar/core";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
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

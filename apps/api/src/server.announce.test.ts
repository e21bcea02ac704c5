import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { announcement, describeDatabase } from "./server.announce.ts";

describe("describeDatabase", () => {
  it("names the SQLite file", () => {
    expect(describeDatabase("file:/srv/calendar/data/calendar.db")).toBe("SQLite /srv/calendar/data/calendar.db");
  });

  it("names PostgreSQL's host and database, never its credentials", () => {
    expect(describeDatabase("postgresql://calendar:s3cret@db.internal:5433/calendar?sslmode=require")).toBe(
      "PostgreSQL db.internal:5433/calendar",
    );
  });
});

describe("the README's start-up lines", () => {
  const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
  const startScript = readFileSync(new URL("../../../scripts/start.sh", import.meta.url), "utf8");

  it("show the log line the server writes, as JSON, with its announcement", () => {
    const logged = readme.split("\n").find((line) => line.startsWith('{"level":30,'));
    const message = JSON.parse(logged ?? "{}").msg;
    expect(message).toBe(announcement("http://127.0.0.1:3000", "file:/…/calendar/data/calendar.db"));
  });

  it("show the lines pnpm start prints before it", () => {
    const printed = [...startScript.matchAll(/^echo '([^']+)'$/gm)].map((match) => match[1]);
    expect(printed).toEqual([
      "Building the server (the first start takes a minute or so; later starts reuse the build)...",
      "Starting the server...",
    ]);
    for (const line of printed) expect(readme).toContain(`\n${line}\n`);
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb } from "@calendar/core";
import { afterAll, describe, expect, it } from "vitest";

/** SQLite's numbers for `PRAGMA synchronous`. */
const SYNCHRONOUS = { normal: 1n, full: 2n };

async function synchronousOf(url: string, options: Parameters<typeof createDb>[1]) {
  const handle = await createDb(url, options);
  try {
    const rows = await handle.db.$queryRawUnsafe<Array<{ synchronous: bigint }>>("PRAGMA synchronous");
    return rows[0]?.synchronous;
  } finally {
    await handle.close();
  }
}

describe("SQLite durability", () => {
  const dir = mkdtempSync(join(tmpdir(), "calendar-durability-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("syncs every commit (synchronous=FULL) by default, so an acknowledged write survives a power cut", async () => {
    expect(await synchronousOf(`file:${join(dir, "default.db")}`, undefined)).toBe(SYNCHRONOUS.full);
  });

  it("runs with synchronous=NORMAL when asked (CALENDAR_SQLITE_SYNCHRONOUS=normal)", async () => {
    expect(await synchronousOf(`file:${join(dir, "normal.db")}`, { sqliteSynchronous: "normal" })).toBe(
      SYNCHRONOUS.normal,
    );
  });
});

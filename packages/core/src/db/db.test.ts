import pg from "pg";
import { describe, expect, it } from "vitest";
import { TEST_POSTGRES_URL, useTestDatabase } from "../testing/index.ts";
import { readerOf } from "./db.ts";

describe("a PostgreSQL client made by createDb", () => {
  const database = useTestDatabase("postgres");

  it("survives the server ending its idle connections (a restart, a failover) and answers the next query", async () => {
    // Only the raw reader has used the pool so far: Prisma's adapter, which listens to the pool once it connects,
    // has not.
    const { db } = database.current.handle;
    await readerOf(db).json("SELECT '1'", []);
    const name = new URL(database.current.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [name],
      );
      expect(rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // The pool hears of the ended connections on their sockets; give it the turn to.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await readerOf(db).json("SELECT '2'", [])).toBe("2");
    expect(await db.changeVersion.count()).toBeGreaterThanOrEqual(0);
  });
});

import { TEST_POSTGRES_URL } from "@calendar/core/testing";
import pg from "pg";

/** Runs one statement on the test server's administration database (creating or dropping a database). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

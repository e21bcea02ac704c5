import { describe, expect, it } from "vitest";
import { describeDatabase } from "./server.announce.ts";

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

import { describe, expect, it } from "vitest";
import { PROVIDERS, useTestDatabase } from "../testing/index.ts";
import { derivedDb, readerOf } from "./db.ts";

describe.each(PROVIDERS)("a client derived by $extends (%s)", (provider) => {
  const database = useTestDatabase(provider);

  it("reads on its base's raw reader once derivedDb names the base", async () => {
    const base = database.current.handle.db;
    expect(() => readerOf(base.$extends({}) as never)).toThrow("not created by createDb");
    const derived = derivedDb(base, base.$extends({}));
    expect(readerOf(derived)).toBe(readerOf(base));
    expect(await readerOf(derived).json("SELECT '1'", [])).toBe("1");
  });
});

import { describe, expect, it } from "vitest";
import { PROVIDERS, useTestDatabase } from "../testing/index.ts";
import { readerOf } from "./db.ts";
import { JSON_SQL } from "./json-sql.ts";
import { MAX_PREPARED_STATEMENTS } from "./reader.ts";

describe.each(PROVIDERS)("the raw reader (%s)", (provider) => {
  const database = useTestDatabase(provider);

  it("answers more statement texts than it keeps prepared, again after they were dropped", async () => {
    const reader = readerOf(database.current.handle.db);
    const sql = JSON_SQL[provider];
    const texts = Array.from(
      { length: MAX_PREPARED_STATEMENTS + 20 },
      (_, index) =>
        `SELECT ${sql.text(
          sql.object([
            ["text", `${index}`],
            ["bound", `CAST(${sql.param(1)} AS INTEGER)`],
          ]),
        )}`,
    );
    for (const round of [1, 2]) {
      const answers = await Promise.all(texts.map((text, index) => reader.json(text, [index * round])));
      expect(answers.map((answer) => JSON.parse(answer ?? "null"))).toEqual(
        texts.map((_, index) => ({ text: index, bound: index * round })),
      );
    }
  });
});

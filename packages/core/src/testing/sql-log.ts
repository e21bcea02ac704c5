import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { expect } from "vitest";

/**
 * With `CALENDAR_TEST_SQL_LOG=<folder>`, every distinct statement a test file sends to PostgreSQL is appended to
 * `<folder>/<pid>.sql` as a line `<test file>\t<statement>`, its placeholders, rows and white space normalized. It
 * shows the statements only some files execute on PostgreSQL: what a file leaving `ON_POSTGRES_TOO` (vitest.config.ts)
 * would stop testing there. A setup file of the test projects; pg is loaded once per worker, so is the wrapper.
 */
const folder = process.env.CALENDAR_TEST_SQL_LOG;
const WRAPPED = Symbol.for("calendar.test.sql-log");

/** `IN ($3, $4, $5)` and `IN ($1)` are the same statement; so are two spellings of its white space. */
function normalizedStatement(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/\$\d+(\s*,\s*\$\d+)*/g, "$n")
    .replace(/\(\$n\)(\s*,\s*\(\$n\))+/g, "($n)")
    .replace(/"calendar_test_\w+"/g, '"calendar_test_n"')
    .trim();
}

type Query = typeof pg.Client.prototype.query;
const prototype = pg.Client.prototype as typeof pg.Client.prototype & { [WRAPPED]?: true };

if (folder && !prototype[WRAPPED]) {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${process.pid}.sql`);
  const seen = new Set<string>();
  const query: Query = prototype.query;
  prototype.query = function (this: pg.Client, ...args: Parameters<Query>) {
    const [config] = args;
    const text = typeof config === "string" ? config : (config as { text?: unknown } | undefined)?.text;
    if (typeof text === "string") {
      const line = `${expect.getState().testPath ?? ""}\t${normalizedStatement(text)}`;
      if (!seen.has(line)) {
        seen.add(line);
        appendFileSync(file, `${line}\n`);
      }
    }
    return Reflect.apply(query, this, args);
  } as Query;
  prototype[WRAPPED] = true;
}

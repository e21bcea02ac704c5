import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.ts";
import { useTestServer } from "../support/server.ts";

/**
 * Recurrence expansion is bounded: a rule no date can match (ical.js tests candidate after candidate and, for rules
 * finer than MONTHLY, never gives up) is answered at once, for every FREQ, through REST, its dry run, tRPC and the
 * command line. Before the bound, the 200-byte file below never answered and grew the heap by gigabytes.
 */
const PROMPT_MS = 5_000;

/** A series `uid` that starts on DTSTART and repeats by `rule`. */
function seriesEvent(rule: string, uid = "never@test"): string[] {
  return [
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20300101T000000Z",
    "DTSTART:20310110T100000Z",
    "DTEND:20310110T110000Z",
    `RRULE:${rule}`,
    "SUMMARY:Never",
    "END:VEVENT",
  ];
}

function calendarOf(events: string[][]): string {
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", ...events.flat(), "END:VCALENDAR", ""].join("\r\n");
}

/** A one-event file (about 200 bytes). */
const seriesFile = (rule: string) => calendarOf([seriesEvent(rule)]);

const IMPOSSIBLE = "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30";

const NO_OCCURRENCE = "The series has no occurrence before 2032-01-10.";
const TOO_SPARSE =
  "The RRULE tests more than 20000 candidate times before 2032-01-10 (its BY parts reject nearly every one); write it with a coarser FREQ.";

/** What the import answers for each FREQ of the impossible rule (DTSTART, 10 January, does not match it either). */
const BY_FREQUENCY = [
  ["SECONDLY", TOO_SPARSE],
  ["MINUTELY", TOO_SPARSE],
  ["HOURLY", NO_OCCURRENCE],
  ["DAILY", NO_OCCURRENCE],
  ["WEEKLY", "The RRULE cannot be expanded: For WEEKLY recurrences neither BYMONTHDAY nor BYYEARDAY may appear"],
  ["MONTHLY", NO_OCCURRENCE],
  // ical.js reads 30 February as 2 March in YEARLY rules: those dates are not occurrences either.
  ["YEARLY", NO_OCCURRENCE],
] as const;

async function promptly<T>(work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const answer = await work();
  expect(performance.now() - started).toBeLessThan(PROMPT_MS);
  return answer;
}

describe.each(PROVIDERS)("bounded recurrence expansion on import (%s)", (provider) => {
  const server = useTestServer(provider);
  const post = (text: string, query: Record<string, string> = {}) =>
    promptly(() =>
      server.call("POST /import", { as: server.users.editor, body: text, contentType: "text/calendar", query }),
    );
  const eventCount = () => server.db.event.count({ where: { icalUid: "never@test" } });

  it("answers a 200-byte file whose rule no day matches at once, skipping the series with the reason", async () => {
    const text = seriesFile(IMPOSSIBLE);
    expect(Buffer.byteLength(text)).toBeLessThan(260);
    const skipped = {
      created: [],
      updated: [],
      unchanged: 0,
      skipped: [{ uid: "never@test", reason: NO_OCCURRENCE }],
      series: 0,
    };
    expect((await post(text, { dry_run: "true" })).body).toEqual(skipped);
    expect((await post(text)).body).toEqual(skipped);
    const editor = server.client(server.users.editor);
    expect(await promptly(() => editor.import.calendar.mutate({ calendar: text, dry_run: true }))).toEqual(skipped);
    expect(await promptly(() => editor.import.calendar.mutate({ calendar: text }))).toEqual(skipped);
    expect(await eventCount()).toBe(0);
  });

  it.each(BY_FREQUENCY)(
    "skips a FREQ=%s series that yields nothing in its window, with the reason",
    async (freq, reason) => {
      const text = seriesFile(`FREQ=${freq};BYMONTH=2;BYMONTHDAY=30`);
      const expected = { created: [], updated: [], unchanged: 0, skipped: [{ uid: "never@test", reason }], series: 0 };
      expect((await post(text, { dry_run: "true" })).body).toEqual(expected);
      expect((await post(text)).body).toEqual(expected);
      const rpc = await promptly(() => server.client(server.users.editor).import.calendar.mutate({ calendar: text }));
      expect(rpc).toEqual(expected);
      expect(await eventCount()).toBe(0);
    },
  );

  it("skips the series found after the file's expansion budget is spent, with the reason", async () => {
    const sparse = "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30";
    const text = calendarOf([
      ...[0, 1, 2, 3, 4].map((index) => seriesEvent(sparse, `sparse-${index}@test`)),
      seriesEvent("FREQ=DAILY;COUNT=2", "plain@test"),
    ]);
    const spent = "The file's recurring series already tested 100000 candidate times together.";
    // Four rules spend 20,001 candidates each; the fifth runs out of the file's 100,000 and the last gets none.
    expect((await post(text, { dry_run: "true" })).body.skipped).toEqual([
      ...[0, 1, 2, 3].map((index) => ({ uid: `sparse-${index}@test`, reason: TOO_SPARSE })),
      { uid: "sparse-4@test", reason: spent },
      { uid: "plain@test", reason: spent },
    ]);
  });

  it("keeps expanding a plain rule that stays within the bounds, DTSTART first", async () => {
    const text = calendarOf([seriesEvent("FREQ=HOURLY;COUNT=30", "hourly@test")]);
    const imported = await post(text, { dry_run: "true" });
    expect([imported.body.created.length, imported.body.skipped, imported.body.series]).toEqual([30, [], 1]);
  });
});

describe.each(PROVIDERS)("bounded recurrence expansion on `calendar import` (%s)", (provider) => {
  const database = useTestDatabase(provider);

  async function calendar(...args: string[]): Promise<string> {
    let stdout = "";
    const output = {
      out: (text: string) => {
        stdout += text;
      },
      err: () => undefined,
    };
    const program = createProgram(output, { DATABASE_URL: database.current.url, CALENDAR_TIMEZONE: "UTC" });
    await program.parseAsync(args, { from: "user" });
    return stdout;
  }

  it("answers the impossible rule at once, dry and written", async () => {
    const directory = mkdtempSync(join(tmpdir(), "calendar-import-"));
    const path = join(directory, "never.ics");
    writeFileSync(path, seriesFile(IMPOSSIBLE));
    const dry = await promptly(() => calendar("import", path, "--dry-run"));
    expect(dry).toBe(
      `Would create 0, would update 0, unchanged 0, skipped 1 (series: 0).\n  skipped never@test: ${NO_OCCURRENCE}\n`,
    );
    const written = JSON.parse(await promptly(() => calendar("import", path, "--json")));
    expect(written).toEqual({
      created: [],
      updated: [],
      unchanged: 0,
      skipped: [{ uid: "never@test", reason: NO_OCCURRENCE }],
      series: 0,
    });
    expect(await database.current.handle.db.event.count()).toBe(0);
  });
});

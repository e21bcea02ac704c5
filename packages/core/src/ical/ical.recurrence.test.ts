import fc from "fast-check";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { expandRecurrence, MAX_RULE_STEPS, type RecurrenceLimits } from "./ical.recurrence.ts";

const START = ICAL.Time.fromDateTimeString("2031-01-10T10:00:00Z");
const YEAR = { from: new Date("2031-01-10T10:00:00Z"), until: new Date("2032-01-10T10:00:00Z") };

function expand(rule: string, limits: RecurrenceLimits = { maxOccurrences: 500 }, window = YEAR) {
  const expansion = expandRecurrence({ rule: ICAL.Recur.fromString(rule), start: START, window, limits });
  return { ...expansion, occurrences: expansion.occurrences.map((time) => time.toString()) };
}

describe("expandRecurrence", () => {
  it("answers a plain rule's occurrences up to its COUNT, one step each", () => {
    expect(expand("FREQ=DAILY;COUNT=3")).toEqual({
      occurrences: ["2031-01-10T10:00:00Z", "2031-01-11T10:00:00Z", "2031-01-12T10:00:00Z"],
      steps: 2,
      cut: null,
    });
  });

  it("stops at the window's end", () => {
    const { occurrences, cut } = expand("FREQ=MONTHLY");
    expect([occurrences.length, occurrences.at(-1), cut]).toEqual([12, "2031-12-10T10:00:00Z", null]);
  });

  it("leaves out occurrences before the window's start", () => {
    const window = { from: new Date("2031-01-12T00:00:00Z"), until: YEAR.until };
    expect(expand("FREQ=DAILY;COUNT=3", { maxOccurrences: 500 }, window).occurrences).toEqual(["2031-01-12T10:00:00Z"]);
  });

  it("cuts a series at the occurrence limit and says so", () => {
    const { occurrences, cut } = expand("FREQ=DAILY", { maxOccurrences: 5 });
    expect([occurrences.length, cut]).toEqual([5, { reason: "occurrence-limit", limit: 5 }]);
  });

  it.each(["SECONDLY", "MINUTELY"])("gives up on a FREQ=%s rule no date matches after the step limit", (freq) => {
    expect(expand(`FREQ=${freq};BYMONTH=2;BYMONTHDAY=30`)).toEqual({
      occurrences: [],
      steps: MAX_RULE_STEPS + 1,
      cut: { reason: "step-limit", limit: MAX_RULE_STEPS },
    });
  });

  it.each(["HOURLY", "DAILY", "MONTHLY", "YEARLY"])("ends a FREQ=%s rule no date matches at the window", (freq) => {
    const { occurrences, cut } = expand(`FREQ=${freq};BYMONTH=2;BYMONTHDAY=30`);
    expect([occurrences, cut]).toEqual([[], null]);
  });

  it("honours a smaller step limit", () => {
    const { steps, cut } = expand("FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30", { maxOccurrences: 500, maxSteps: 100 });
    expect([steps, cut]).toEqual([101, { reason: "step-limit", limit: 100 }]);
  });

  it("reports a rule ical.js refuses", () => {
    expect(expand("FREQ=WEEKLY;BYMONTHDAY=3").cut).toEqual({
      reason: "invalid-rule",
      message: "For WEEKLY recurrences neither BYMONTHDAY nor BYYEARDAY may appear",
    });
  });

  it("keeps only dates in BYMONTH and BYMONTHDAY, counting negative days from the month's end", () => {
    expect(expand("FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3").occurrences).toEqual([
      "2031-01-31T10:00:00Z",
      "2031-02-28T10:00:00Z",
      "2031-03-31T10:00:00Z",
    ]);
  });

  it("moves a long INTERVAL in one step: a daily rule 2.9 million days apart tests one candidate", () => {
    const start = ICAL.Time.fromDateTimeString("2026-06-03T19:00:00");
    const far = { from: new Date(0), until: new Date(Date.UTC(9999, 11, 31)) };
    const expansion = expandRecurrence({
      rule: ICAL.Recur.fromString("FREQ=DAILY;INTERVAL=2900000;COUNT=2"),
      start,
      window: far,
      limits: { maxOccurrences: 10 },
    });
    expect([expansion.occurrences.map(String), expansion.steps]).toEqual([
      ["2026-06-03T19:00:00", "9966-05-09T19:00:00"],
      1,
    ]);
  });

  it("gives the dates ical.js' own iterator gives, for long and short INTERVALs with and without BYDAY", () => {
    const rules = fc.record({
      freq: fc.constantFrom("DAILY", "WEEKLY", "MONTHLY", "YEARLY"),
      interval: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 1_000 })),
      by: fc.constantFrom("", ";BYDAY=MO,FR", ";BYDAY=SU"),
      start: fc.date({
        min: new Date("1990-01-01T00:00:00Z"),
        max: new Date("2060-12-31T00:00:00Z"),
        noInvalidDate: true,
      }),
    });
    // BYDAY limits a DAILY rule, which then may never match: ical.js' own iterator would not end.
    const expandingRules = rules.filter(({ freq, by }) => freq !== "DAILY" || by === "");
    fc.assert(
      fc.property(expandingRules, ({ freq, interval, by, start }) => {
        const rule = `FREQ=${freq};INTERVAL=${interval};COUNT=6${by}`;
        const dtstart = ICAL.Time.fromJSDate(start, true);
        const theirs: ICAL.Time[] = [];
        const iterator = ICAL.Recur.fromString(rule).iterator(dtstart);
        for (let next = iterator.next(); next && next.year < 9999 && theirs.length < 6; next = iterator.next()) {
          theirs.push(next.clone());
        }
        const ours = expandRecurrence({
          rule: ICAL.Recur.fromString(rule),
          start: dtstart,
          window: { from: new Date(-62_135_596_800_000), until: new Date(Date.UTC(9999, 11, 31)) },
          limits: { maxOccurrences: 6, maxSteps: 1_000_000 },
        });
        expect(ours.occurrences.map(String), rule).toEqual(theirs.map(String));
      }),
      { numRuns: 300 },
    );
  });
});

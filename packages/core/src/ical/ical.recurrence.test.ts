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
});

import { describe, expect, it } from "vitest";
import { DomainError } from "../errors.ts";
import { proRecurrenceInput, proRecurrenceLines } from "./series.pro.ts";

const BERLIN = { timezone: "Europe/Berlin", allDay: false };

function linesOf(recurrence: unknown, frame = BERLIN): string[] {
  return proRecurrenceLines(proRecurrenceInput.parse(recurrence), frame);
}

function refusalOf(recurrence: unknown, frame = BERLIN): unknown {
  try {
    linesOf(recurrence, frame);
  } catch (error) {
    if (error instanceof DomainError) return error.extra;
    throw error;
  }
  throw new Error("the recurrence was translated");
}

describe("the Pro shape's rules", () => {
  it.each([
    ["Every Day", "RRULE:FREQ=DAILY"],
    ["Every Week", "RRULE:FREQ=WEEKLY"],
    ["Every Month", "RRULE:FREQ=MONTHLY"],
    ["Every Year", "RRULE:FREQ=YEARLY"],
  ])("%s repeats with interval 1", (type, line) => {
    expect(linesOf({ rules: [{ type, "end-type": "Never" }] })).toEqual([line]);
  });

  it("a custom weekly rule every 2 weeks on Tuesday and Thursday, after 10 times", () => {
    expect(
      linesOf({
        rules: [
          {
            type: "Custom",
            "end-type": "After",
            "end-count": "10",
            custom: { type: "Weekly", interval: "2", "same-time": "yes", week: { day: ["4", "2"] } },
          },
        ],
      }),
    ).toEqual(["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=10"]);
  });

  it("reads underscored keys as the plugin's hyphenated ones", () => {
    expect(linesOf({ rules: [{ type: "Weekly", end_type: "After", end_count: 3 }] })).toEqual([
      "RRULE:FREQ=WEEKLY;COUNT=3",
    ]);
  });

  it("ends on a date: that day's end in the event's zone, as UTC", () => {
    expect(linesOf({ rules: [{ type: "Every Day", "end-type": "On", end: "2031-03-01" }] })).toEqual([
      "RRULE:FREQ=DAILY;UNTIL=20310301T225959Z",
    ]);
  });

  it("ends on a date of an all-day series: the date itself", () => {
    expect(
      linesOf({ rules: [{ type: "Every Year", "end-type": "On", end: "2035-06-01" }] }, { ...BERLIN, allDay: true }),
    ).toEqual(["RRULE:FREQ=YEARLY;UNTIL=20350601"]);
  });

  it.each([
    [{ number: "Last", day: 5 }, "BYDAY=-1FR"],
    [{ number: "Second", day: "1" }, "BYDAY=2MO"],
    [{ number: "15" }, "BYMONTHDAY=15"],
    [{ number: "Last", day: 8 }, "BYMONTHDAY=-1"],
    [{ "same-day": "yes", number: "Last", day: 5 }, null],
  ])("a monthly rule on %j gives %s", (month, part) => {
    expect(linesOf({ rules: [{ type: "Monthly", custom: { month } }] })).toEqual([
      part ? `RRULE:FREQ=MONTHLY;${part}` : "RRULE:FREQ=MONTHLY",
    ]);
  });

  it("a yearly rule in March and June on the first Sunday, every 2 years", () => {
    expect(
      linesOf({
        rules: [
          { type: "Custom", custom: { type: "Yearly", interval: 2, year: { month: "3,6", number: "First", day: 7 } } },
        ],
      }),
    ).toEqual(["RRULE:FREQ=YEARLY;INTERVAL=2;BYMONTH=3,6;BYDAY=1SU"]);
  });

  it("gives Date rules as RDATEs and Date exclusions as EXDATEs", () => {
    expect(
      linesOf({
        rules: [
          { type: "Every Week", "end-type": "After", "end-count": 5 },
          { type: "Date", custom: { date: { date: "2031-03-05" } } },
        ],
        exclusions: [
          { custom: { type: "Date", date: { date: "2031-01-21" } } },
          { type: "Custom", custom: { type: "Date", date: { date: "2031-01-28" } } },
        ],
      }),
    ).toEqual(["RRULE:FREQ=WEEKLY;COUNT=5", "RDATE;VALUE=DATE:20310305", "EXDATE;VALUE=DATE:20310121,20310128"]);
  });
});

describe("the parts the Pro shape cannot have honoured", () => {
  it("refuses a second repeating rule, naming it", () => {
    expect(refusalOf({ rules: [{ type: "Every Day" }, { type: "Every Week" }] })).toEqual({
      params: { recurrence: 'rules.1: A series has one repeating rule; give its other dates as "Date" rules.' },
    });
  });

  it("refuses occurrences at another time than the event's", () => {
    expect(refusalOf({ rules: [{ type: "Daily", custom: { "same-time": "no", "start-time": "10:00am" } }] })).toEqual({
      params: {
        recurrence:
          'rules.0.custom.same-time: Every occurrence starts at the event\'s time and lasts as long: "no" (another time) is not supported.',
      },
    });
  });

  it("refuses a repeating exclusion", () => {
    expect(refusalOf({ rules: [{ type: "Every Day" }], exclusions: [{ custom: { type: "Weekly" } }] })).toEqual({
      params: { recurrence: 'exclusions.0.custom.type: Only dates can be excluded: give each as a "Date" exclusion.' },
    });
  });

  it("refuses an nth weekday without its weekday", () => {
    expect(refusalOf({ rules: [{ type: "Monthly", custom: { month: { number: "Last", day: "-" } } }] })).toEqual({
      params: {
        recurrence:
          'rules.0.custom.month.day: "Last" needs a weekday (1 for Monday to 7 for Sunday, 8 for a day of the month).',
      },
    });
  });

  it("refuses an end without its date or count", () => {
    expect(refusalOf({ rules: [{ type: "Every Day", "end-type": "After" }] })).toEqual({
      params: { recurrence: 'rules.0.end-count: The number of occurrences is required with "end-type": "After".' },
    });
    expect(refusalOf({ rules: [{ type: "Every Day", "end-type": "On" }] })).toEqual({
      params: { recurrence: 'rules.0.end: The date the series ends on is required with "end-type": "On".' },
    });
  });

  it.each([
    [{ rules: [{ type: "Every Fortnight" }] }, ["rules", 0, "type"]],
    [{ rules: [{ type: "Every Day", on: "Monday" }] }, ["rules", 0]],
    [{ rules: [{ type: "Weekly", custom: { week: { day: [9] } } }] }, ["rules", 0, "custom", "week", "day", 0]],
    [{ rules: [] }, ["rules"]],
    [{ rules: [{ type: "Every Day" }], frequency: "often" }, []],
  ])("does not read %j: the schema names %j", (recurrence, path) => {
    const result = proRecurrenceInput.safeParse(recurrence);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });
});

import { describe, expect, it } from "vitest";
import { seriesSchedule } from "./series.schedule.ts";

const BERLIN = { timezone: "Europe/Berlin", allDay: false, startLocal: "2031-03-25 19:00:00", durationSeconds: 5_400 };

describe("the schema.org Schedule of a series", () => {
  it("says a weekly rule with a count and an excluded start across a DST change", () => {
    expect(
      seriesSchedule({
        ...BERLIN,
        lines: ["RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU", "EXDATE;TZID=Europe/Berlin:20310408T190000"],
      }),
    ).toEqual({
      "@type": "Schedule",
      repeatFrequency: "P1W",
      byDay: ["https://schema.org/Tuesday"],
      startDate: "2031-03-25",
      startTime: "19:00:00",
      endTime: "20:30:00",
      scheduleTimezone: "Europe/Berlin",
      repeatCount: 4,
      exceptDate: ["2031-04-08T19:00:00+02:00"],
    });
  });

  it("says a monthly rule on the last Friday every 2 months until a date, as iCalendar's byDay", () => {
    expect(
      seriesSchedule({
        ...BERLIN,
        startLocal: "2031-01-31 18:00:00",
        lines: ["RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR;UNTIL=20311231T225959Z"],
      }),
    ).toMatchObject({ repeatFrequency: "P2M", byDay: ["-1FR"], startDate: "2031-01-31", endDate: "2031-12-31" });
  });

  it("says an all-day yearly rule in dates alone", () => {
    expect(
      seriesSchedule({
        timezone: "UTC",
        allDay: true,
        startLocal: "2031-07-14 00:00:00",
        durationSeconds: 86_400,
        lines: ["RRULE:FREQ=YEARLY;BYMONTH=7;BYMONTHDAY=14", "EXDATE;VALUE=DATE:20330714"],
      }),
    ).toEqual({
      "@type": "Schedule",
      repeatFrequency: "P1Y",
      byMonthDay: [14],
      byMonth: [7],
      startDate: "2031-07-14",
      scheduleTimezone: "UTC",
      exceptDate: ["2033-07-14"],
    });
  });

  it("leaves out a schedule schema.org cannot say (BYSETPOS) rather than a wrong one", () => {
    expect(seriesSchedule({ ...BERLIN, lines: ["RRULE:FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=-1"] })).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { DomainError } from "../errors.ts";
import { listDateWindow, scheduleOf } from "./event.dates.ts";

const NOW = new Date("2024-05-15T12:00:00Z");

function errorOf(work: () => unknown): DomainError {
  try {
    work();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a DomainError");
}

describe("scheduleOf", () => {
  it("reads wall times in the event's zone and derives the instants", () => {
    expect(
      scheduleOf(
        { start_date: "2018-01-01 10:00:00", end_date: "2018-01-01 12:30:00", timezone: "Europe/Rome" },
        undefined,
        "UTC",
        NOW,
      ),
    ).toEqual({
      timezone: "Europe/Rome",
      allDay: false,
      startLocal: "2018-01-01 10:00:00",
      endLocal: "2018-01-01 12:30:00",
      startUtc: new Date("2018-01-01T09:00:00Z"),
      endUtc: new Date("2018-01-01T11:30:00Z"),
    });
  });

  it("uses the site's zone when the event has none or an empty one", () => {
    for (const timezone of [undefined, ""]) {
      const schedule = scheduleOf(
        { start_date: "2018-07-01 10:00", end_date: "2018-07-01 11:00", timezone },
        undefined,
        "America/New_York",
        NOW,
      );
      expect(schedule.timezone).toBe("America/New_York");
      expect(schedule.startUtc).toEqual(new Date("2018-07-01T14:00:00Z"));
    }
  });

  it("honours the change to summer time between start and end", () => {
    const schedule = scheduleOf(
      { start_date: "2024-03-10 01:30:00", end_date: "2024-03-10 03:30:00", timezone: "America/New_York" },
      undefined,
      "UTC",
      NOW,
    );
    expect(schedule.startUtc).toEqual(new Date("2024-03-10T06:30:00Z"));
    expect(schedule.endUtc).toEqual(new Date("2024-03-10T07:30:00Z"));
  });

  it("moves a wall time that does not exist (in the spring gap) forward by the gap", () => {
    const schedule = scheduleOf(
      { start_date: "2024-03-10 02:30:00", end_date: "2024-03-10 04:00:00", timezone: "America/New_York" },
      undefined,
      "UTC",
      NOW,
    );
    expect(schedule.startLocal).toBe("2024-03-10 03:30:00");
    expect(schedule.startUtc).toEqual(new Date("2024-03-10T07:30:00Z"));
  });

  it("reads an ambiguous autumn wall time (it occurs twice) in standard time, as luxon does", () => {
    const schedule = scheduleOf(
      { start_date: "2024-11-03 01:30:00", end_date: "2024-11-03 03:00:00", timezone: "America/New_York" },
      undefined,
      "UTC",
      NOW,
    );
    expect(schedule.startUtc).toEqual(new Date("2024-11-03T06:30:00Z"));
    expect(schedule.endUtc).toEqual(new Date("2024-11-03T08:00:00Z"));
  });

  it("converts ISO dates with an offset and Unix timestamps into the event's wall time", () => {
    const schedule = scheduleOf(
      { start_date: "2018-01-01T10:00:00+02:00", end_date: "1514808000", timezone: "Europe/Rome" },
      undefined,
      "UTC",
      NOW,
    );
    expect(schedule.startLocal).toBe("2018-01-01 09:00:00");
    expect(schedule.endLocal).toBe("2018-01-01 13:00:00");
  });

  it("reads natural language relative to now, in the event's zone", () => {
    const schedule = scheduleOf(
      { start_date: "tomorrow 9am", end_date: "tomorrow 5pm", timezone: "Europe/Berlin" },
      undefined,
      "UTC",
      NOW,
    );
    expect(schedule.startLocal).toBe("2024-05-16 09:00:00");
    expect(schedule.endLocal).toBe("2024-05-16 17:00:00");
    expect(schedule.startUtc).toEqual(new Date("2024-05-16T07:00:00Z"));
  });

  it("snaps an all-day event to whole days and keeps a multi-day span", () => {
    const schedule = scheduleOf(
      { start_date: "2018-01-01 10:00:00", end_date: "2018-01-03 12:00:00", all_day: true },
      undefined,
      "UTC",
      NOW,
    );
    expect([schedule.startLocal, schedule.endLocal, schedule.allDay]).toEqual([
      "2018-01-01 00:00:00",
      "2018-01-03 23:59:59",
      true,
    ]);
  });

  it("drops fractions of a second", () => {
    const schedule = scheduleOf(
      { start_date: "2018-01-01T10:00:00.750Z", end_date: "2018-01-01T11:00:00.250Z" },
      undefined,
      "UTC",
      NOW,
    );
    expect(schedule.startUtc).toEqual(new Date("2018-01-01T10:00:00Z"));
    expect(schedule.endLocal).toBe("2018-01-01 11:00:00");
  });

  it("rejects an end before the start with a 400 naming end_date", () => {
    const error = errorOf(() =>
      scheduleOf({ start_date: "2018-01-02", end_date: "2018-01-01" }, undefined, "UTC", NOW),
    );
    expect([error.status, error.code, error.extra]).toEqual([
      400,
      "rest_invalid_param",
      { params: { end_date: "The end must not be before the start." } },
    ]);
  });

  it("rejects a date that does not exist with a 400 naming it, instead of swapping its day and month", () => {
    for (const [name, write] of [
      ["start_date", { start_date: "2030-13-01 20:00:00", end_date: "2030-12-01 22:00:00" }],
      ["end_date", { start_date: "2030-01-01 20:00:00", end_date: "13/01/2030" }],
    ] as const) {
      const error = errorOf(() => scheduleOf(write, undefined, "UTC", NOW));
      expect([error.status, error.code, Object.keys(error.extra?.params ?? {})]).toEqual([
        400,
        "rest_invalid_param",
        [name],
      ]);
    }
  });

  const current = {
    timezone: "Europe/Rome",
    allDay: false,
    startLocal: "2018-01-01 10:00:00",
    endLocal: "2018-01-01 12:00:00",
  };

  it("keeps the wall times and moves the instants when only the zone changes", () => {
    expect(scheduleOf({ timezone: "America/New_York" }, current, "UTC", NOW)).toEqual({
      timezone: "America/New_York",
      allDay: false,
      startLocal: "2018-01-01 10:00:00",
      endLocal: "2018-01-01 12:00:00",
      startUtc: new Date("2018-01-01T15:00:00Z"),
      endUtc: new Date("2018-01-01T17:00:00Z"),
    });
  });

  it("reads a new start in the stored zone and checks it against the stored end", () => {
    expect(scheduleOf({ start_date: "2018-01-01 11:00:00" }, current, "UTC", NOW).startUtc).toEqual(
      new Date("2018-01-01T10:00:00Z"),
    );
    expect(errorOf(() => scheduleOf({ start_date: "2018-01-01 13:00:00" }, current, "UTC", NOW)).code).toBe(
      "rest_invalid_param",
    );
  });

  it("snaps the stored times when all_day is switched on", () => {
    const schedule = scheduleOf({ all_day: true }, current, "UTC", NOW);
    expect([schedule.startLocal, schedule.endLocal]).toEqual(["2018-01-01 00:00:00", "2018-01-01 23:59:59"]);
  });
});

describe("listDateWindow", () => {
  it("defaults to yesterday 00:00 until 24 months ahead at 23:59:59 in the site zone", () => {
    expect(listDateWindow({}, "UTC", NOW)).toEqual({
      bounds: { startFrom: new Date("2024-05-14T00:00:00Z"), endUntil: new Date("2026-05-15T23:59:59Z") },
      echo: { start_date: "2024-05-14 00:00:00", end_date: "2026-05-15 23:59:59" },
    });
  });

  it("computes the default window in the site's zone", () => {
    const window = listDateWindow({}, "America/New_York", new Date("2024-05-15T02:00:00Z"));
    expect(window.echo).toEqual({ start_date: "2024-05-13 00:00:00", end_date: "2026-05-14 23:59:59" });
    expect(window.bounds.startFrom).toEqual(new Date("2024-05-13T04:00:00Z"));
  });

  it("includes whole days by default: the start of start_date's day, the end of every other value's day", () => {
    const window = listDateWindow(
      { start_date: "2018-01-01 15:00:00", end_date: "2018-01-01 18:00:00", starts_after: "2017-12-01 10:00" },
      "UTC",
      NOW,
    );
    expect(window.echo).toEqual({
      start_date: "2018-01-01 00:00:00",
      end_date: "2018-01-01 23:59:59",
      starts_after: "2017-12-01 23:59:59",
    });
  });

  it("uses the given times with strict_dates", () => {
    const window = listDateWindow(
      { start_date: "2018-01-01 15:00:00", end_date: "2018-01-01 18:00:00", strict_dates: true },
      "Europe/Berlin",
      NOW,
    );
    expect(window.bounds).toEqual({
      startFrom: new Date("2018-01-01T14:00:00Z"),
      endUntil: new Date("2018-01-01T17:00:00Z"),
    });
  });

  it("drops the default window when a relative filter is given", () => {
    expect(listDateWindow({ ends_after: "2017-12-31", starts_before: "2018-01-02" }, "UTC", NOW)).toEqual({
      bounds: { startBefore: new Date("2018-01-02T23:59:59Z"), endAfter: new Date("2017-12-31T23:59:59Z") },
      echo: { starts_before: "2018-01-02 23:59:59", ends_after: "2017-12-31 23:59:59" },
    });
  });

  it("keeps an explicit start_date beside relative filters, and the default end beside a lone start_date", () => {
    expect(listDateWindow({ start_date: "2017-12-30", ends_after: "2017-12-31" }, "UTC", NOW).echo).toEqual({
      start_date: "2017-12-30 00:00:00",
      ends_after: "2017-12-31 23:59:59",
    });
    expect(listDateWindow({ start_date: "2017-12-30" }, "UTC", NOW).echo).toEqual({
      start_date: "2017-12-30 00:00:00",
      end_date: "2026-05-15 23:59:59",
    });
  });

  it("reads month/day/year and rejects a list date that does not exist, naming it", () => {
    expect(listDateWindow({ start_date: "03/04/2027", end_date: "2027-03-05" }, "UTC", NOW).echo).toEqual({
      start_date: "2027-03-04 00:00:00",
      end_date: "2027-03-05 23:59:59",
    });
    const error = errorOf(() => listDateWindow({ start_date: "2027-13-01" }, "UTC", NOW));
    expect([error.status, Object.keys(error.extra?.params ?? {})]).toEqual([400, ["start_date"]]);
  });

  it("ignores every date filter with include", () => {
    expect(listDateWindow({ include: [1], start_date: "2018-01-01" }, "UTC", NOW)).toEqual({ bounds: {}, echo: {} });
  });
});

import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { endOfDay, isDateValue, isoWithOffset, parseDateTime, timezoneAbbreviation } from "./dates.ts";

describe("date helpers", () => {
  it("accepts the date forms of the API and rejects other text", () => {
    for (const value of ["2018-01-01 10:00:00", "2018-01-01", "2018-01-01T10:00:00+02:00", "1514800800", 1514800800]) {
      expect(isDateValue(value), JSON.stringify(value)).toBe(true);
    }
    for (const value of ["before my birthday", "foo", ""])
      expect(isDateValue(value), JSON.stringify(value)).toBe(false);
  });

  it("reads relative values from now", () => {
    const now = new Date("2024-05-15T12:00:00Z");
    expect(parseDateTime("+1 week", "UTC", now)?.toISO()).toBe("2024-05-22T12:00:00.000Z");
    expect(parseDateTime("next wednesday 4pm", "UTC", now)?.toFormat("yyyy-MM-dd HH:mm")).toBe("2024-05-22 16:00");
  });

  it("ends a day at 23:59:59 without fractions", () => {
    const day = DateTime.fromISO("2018-01-01T10:20:30.400", { zone: "UTC" });
    expect(endOfDay(day).toISO()).toBe("2018-01-01T23:59:59.000Z");
  });

  it("names the zone's offset at the instant, winter and summer", () => {
    expect(timezoneAbbreviation(new Date("2018-01-01T12:00:00Z"), "America/New_York")).toBe("EST");
    expect(timezoneAbbreviation(new Date("2018-07-01T12:00:00Z"), "America/New_York")).toBe("EDT");
    expect(timezoneAbbreviation(new Date("2018-07-01T12:00:00Z"), "UTC")).toBe("UTC");
    expect(timezoneAbbreviation(new Date("2018-01-01T12:00:00Z"), "Europe/Berlin")).toBe("CET");
    expect(timezoneAbbreviation(new Date("2018-07-01T12:00:00Z"), "Europe/Rome")).toBe("CEST");
    expect(timezoneAbbreviation(new Date("2018-07-01T12:00:00Z"), "Australia/Sydney")).toBe("AEST");
    expect(timezoneAbbreviation(new Date("2018-07-01T12:00:00Z"), "Asia/Kolkata")).toBe("IST");
    expect(timezoneAbbreviation(new Date("2018-07-01T12:00:00Z"), "Asia/Shanghai")).toBe("GMT+8");
  });

  it("writes ISO 8601 with the zone's offset", () => {
    expect(isoWithOffset(new Date("2018-01-01T15:00:00Z"), "America/New_York")).toBe("2018-01-01T10:00:00-05:00");
  });
});

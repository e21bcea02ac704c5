import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { endOfDay, isAbsoluteDate, isDateValue, isoWithOffset, parseDateTime, timezoneAbbreviation } from "./dates.ts";

describe("date helpers", () => {
  it("accepts the date forms of the API and rejects other text", () => {
    for (const value of ["2018-01-01 10:00:00", "2018-01-01", "2018-01-01T10:00:00+02:00", "1514800800", 1514800800]) {
      expect(isDateValue(value), JSON.stringify(value)).toBe(true);
    }
    for (const value of ["before my birthday", "foo", ""])
      expect(isDateValue(value), JSON.stringify(value)).toBe(false);
  });

  it("refuses dates that do not exist instead of swapping day and month", () => {
    for (const value of [
      "2030-13-01 20:00:00",
      "2027-13-01",
      "2030-13-01 4pm",
      "2027-02-29",
      "2030-02-30",
      "13/01/2027",
      "02/30/2027 10:00",
    ]) {
      expect(parseDateTime(value, "UTC"), value).toBeNull();
    }
  });

  it("refuses dates in figures in an order it does not read: dots, two-digit years, two dates", () => {
    for (const value of ["13.01.2027", "03.04.2027", "03/04/27", "03/04/2027 04/05/2027"]) {
      expect(parseDateTime(value, "UTC"), value).toBeNull();
    }
  });

  it("reads dates in figures year first, or month/day/year as the reference's strtotime does", () => {
    const read = (value: string) => parseDateTime(value, "Europe/Rome")?.toFormat("yyyy-MM-dd HH:mm:ss ZZZZ");
    expect(read("03/04/2027")).toBe("2027-03-04 00:00:00 GMT+1");
    expect(read("3/4/2027 10:30")).toBe("2027-03-04 10:30:00 GMT+1");
    expect(read("2027/03/04")).toBe("2027-03-04 00:00:00 GMT+1");
    expect(read("2027-3-4")).toBe("2027-03-04 00:00:00 GMT+1");
    expect(read("2018-01-01 4pm")).toBe("2018-01-01 16:00:00 GMT+1");
    expect(read("20270304")).toBe("2027-03-04 00:00:00 GMT+1");
  });

  it("tells the values fixed by their text from those read from now", () => {
    for (const value of ["2018-01-01", "2018-01-01 10:00:00", "2018-01-01T10:00:00Z", "1514800800", 1514800800]) {
      expect(isAbsoluteDate(value), String(value)).toBe(true);
    }
    for (const value of ["03/04/2027", "20270304", "2018-01-01 4pm"]) {
      expect(isAbsoluteDate(value), value).toBe(true);
    }
    for (const value of ["now", "tomorrow", "tomorrow 9am", "+1 week", "-2 days", "next wednesday 4pm", "March 4"]) {
      expect(isAbsoluteDate(value), value).toBe(false);
    }
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

  it("names the offset of the instant on each side of a change, whatever was asked before", () => {
    const at = (iso: string, zone: string) => timezoneAbbreviation(new Date(iso), zone);
    expect(at("2027-01-10T12:00:00Z", "America/New_York")).toBe("EST");
    expect(at("2027-03-14T06:59:59Z", "America/New_York")).toBe("EST");
    expect(at("2027-03-14T07:00:00Z", "America/New_York")).toBe("EDT");
    expect(at("2027-11-07T05:59:59Z", "America/New_York")).toBe("EDT");
    expect(at("2027-11-07T06:00:00Z", "America/New_York")).toBe("EST");
    expect(at("2027-10-31T00:59:59Z", "Europe/Berlin")).toBe("CEST");
    expect(at("2027-10-31T01:00:00Z", "Europe/Berlin")).toBe("CET");
    expect(at("2027-07-01T12:00:00Z", "Asia/Kathmandu")).toBe("GMT+5:45");
    expect(at("2027-01-01T12:00:00Z", "Australia/Lord_Howe")).toBe(at("2027-12-01T12:00:00Z", "Australia/Lord_Howe"));
    expect(at("2027-01-01T12:00:00Z", "Australia/Lord_Howe")).not.toBe(
      at("2027-07-01T12:00:00Z", "Australia/Lord_Howe"),
    );
    expect(at("1850-01-01T12:00:00Z", "America/New_York")).toBe("GMT-4:56:02");
    expect(at("2027-01-01T12:00:00Z", "UTC+5")).toBe("UTC+5");
    expect(at("2027-01-01T12:00:00Z", "utc")).toBe("UTC");
  });

  it("writes ISO 8601 with the zone's offset", () => {
    expect(isoWithOffset(new Date("2018-01-01T15:00:00Z"), "America/New_York")).toBe("2018-01-01T10:00:00-05:00");
  });
});

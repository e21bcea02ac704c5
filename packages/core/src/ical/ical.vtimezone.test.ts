import ICAL from "ical.js";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { FINAL_RULE_YEAR, vtimezoneOf } from "./ical.vtimezone.ts";

/** The zone ical.js reads from a VTIMEZONE. */
function zoneOf(text: string): ICAL.Timezone {
  return new ICAL.Timezone(new ICAL.Component(ICAL.parse(text)));
}

/** The UTC offset (minutes) ical.js gives a wall time in the VTIMEZONE's zone, and the one luxon (the tz database) gives. */
function offsets(zone: ICAL.Timezone, name: string, wall: DateTime) {
  const time = ICAL.Time.fromData(
    { year: wall.year, month: wall.month, day: wall.day, hour: wall.hour, minute: wall.minute },
    zone,
  );
  return {
    ical: zone.utcOffset(time) / 60,
    luxon: DateTime.fromObject(wall.toObject(), { zone: name }).offset,
  };
}

/** Wall times through a year: each month's 10th at noon, and an hour either side of each of its changes. */
function wallTimesOf(name: string, year: number): DateTime[] {
  const times: DateTime[] = [];
  for (let month = 1; month <= 12; month++) times.push(DateTime.fromObject({ year, month, day: 10, hour: 12 }));
  let previous = DateTime.fromObject({ year }, { zone: name });
  for (let day = 1; day <= 366; day++) {
    const next = previous.plus({ days: 1 });
    if (next.offset !== previous.offset) {
      times.push(previous.plus({ hours: 20 }).setZone("utc", { keepLocalTime: true }));
    }
    previous = next;
  }
  return times.map((time) => DateTime.fromObject(time.toObject(), { zone: "utc" }));
}

const ZONES = Intl.supportedValuesOf("timeZone");

describe("vtimezoneOf", () => {
  it("writes the years a calendar needs, not the span between them: an event in 2026 and one in 9999 need two", () => {
    const text = vtimezoneOf("Europe/Berlin", new Set([2026, 9999])) ?? "";
    // Before: weekly samples over 8,000 years, ~16,000 observances (1.5 MB, 16-20 s).
    expect(text.length).toBeLessThan(2_000);
    expect(text.match(/^BEGIN:(STANDARD|DAYLIGHT)/gm)).toHaveLength(6);
    expect(text).toContain("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU");
    expect(text).toContain("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU");
    const zone = zoneOf(text);
    for (const year of [2026, 9999]) {
      for (const wall of wallTimesOf("Europe/Berlin", year)) {
        const { ical, luxon } = offsets(zone, "Europe/Berlin", wall);
        expect(ical, wall.toISO() ?? "").toBe(luxon);
      }
    }
  });

  it("stays small for 400 years a series reaches, one every 19 years", () => {
    const years = new Set(Array.from({ length: 400 }, (_, index) => 2026 + Math.floor((index * 7000) / 365.2425)));
    const text = vtimezoneOf("America/New_York", years) ?? "";
    // Four years before 2101 with three observances each, then three for all later years.
    expect(text.length).toBeLessThan(4_000);
  });

  it.each(ZONES)("converts %s's times in the years from 2101 on as the tz database does", (name) => {
    const late = [FINAL_RULE_YEAR + 49, FINAL_RULE_YEAR + 50, FINAL_RULE_YEAR + 77];
    const text = vtimezoneOf(name, new Set([2026, ...late])) ?? "";
    const zone = zoneOf(text);
    for (const year of late) {
      for (const wall of wallTimesOf(name, year)) {
        const { ical, luxon } = offsets(zone, name, wall);
        expect(ical, `${name} ${wall.toISO()}`).toBe(luxon);
      }
    }
    // The years from 2101 on are the first one's changes repeated by RRULEs, but where RRULE cannot write the
    // zone's last rule: Cairo's "last Thursday at 24:00" starts on a Friday in October or November.
    if (name === "Africa/Cairo") expect(text).not.toContain("RRULE");
    else expect(text.match(/^DTSTART:(\d{4})/gm)?.filter((line) => line.endsWith(String(late[1])))).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_CAPS } from "./ical.import.schemas.ts";
import { parseCalendarFile } from "./ical.parse.ts";

/** A custom zone of +01:00 whose daylight saving time (+02:00) ended in 2014: its rules end with UNTIL. */
const ENDED = [
  "BEGIN:VTIMEZONE",
  "TZID:Custom/Ended",
  "BEGIN:STANDARD",
  "DTSTART:20001029T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;UNTIL=20141026T010000Z",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "END:STANDARD",
  "BEGIN:DAYLIGHT",
  "DTSTART:20000326T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;UNTIL=20140330T010000Z",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "END:DAYLIGHT",
  "END:VTIMEZONE",
];

function calendarOf(starts: string[]): string {
  const events = starts.flatMap((start, index) => [
    "BEGIN:VEVENT",
    `UID:ended-${index}@test`,
    `DTSTART;TZID=Custom/Ended:${start}`,
    `DTEND;TZID=Custom/Ended:${start.replace("T10", "T11")}`,
    "SUMMARY:In an ended zone",
    "END:VEVENT",
  ]);
  return ["BEGIN:VCALENDAR", "VERSION:2.0", ...ENDED, ...events, "END:VCALENDAR", ""].join("\r\n");
}

const options = {
  siteZone: "UTC",
  horizonMonths: 12,
  seriesCap: 500,
  now: new Date("2030-01-01T00:00:00Z"),
  caps: DEFAULT_IMPORT_CAPS,
};

/** A custom zone whose first observance is a single onset (no RRULE), before one with a rule. */
const SINGLE_FIRST = [
  "BEGIN:VTIMEZONE",
  "TZID:Custom/Ended",
  "BEGIN:STANDARD",
  "DTSTART:20001029T030000",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "END:STANDARD",
  "BEGIN:DAYLIGHT",
  "DTSTART:20100328T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;COUNT=1",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "END:DAYLIGHT",
  "END:VTIMEZONE",
];

describe("the zones of an imported file, as explicit onsets", () => {
  it("reads every observance, those without a rule included", async () => {
    const text = calendarOf(["20310715T100000"]).replace(ENDED.join("\r\n"), SINGLE_FIRST.join("\r\n"));
    const parsed = await parseCalendarFile(text, options);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.series[0]?.occurrences[0]?.body.start_date).toBe("2031-07-15 08:00:00");
  });

  it("keeps the offset in force before the years the events need, and the onsets within them", async () => {
    const parsed = await parseCalendarFile(
      calendarOf(["20310715T100000", "20130715T100000", "20130115T100000"]),
      options,
    );
    expect(parsed.skipped).toEqual([]);
    expect(parsed.series.map((series) => series.occurrences[0]?.body.start_date)).toEqual([
      "2031-07-15 09:00:00",
      "2013-07-15 08:00:00",
      "2013-01-15 09:00:00",
    ]);
  });
});

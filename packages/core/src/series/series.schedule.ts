import ICAL from "ical.js";
import { isoWithOffset } from "../shared/dates.ts";
import { wallTimeInstant, wallTimePlus } from "./series.expand.ts";
import { parseRecurrenceLines, type SeriesFrame, untilWallTime } from "./series.rule.ts";
import type { SeriesScheduleJsonLd } from "./series.schemas.ts";

/** What a series' schedule is told from: its stored lines, its frame and the length of its occurrences. */
export interface ScheduledSeries extends SeriesFrame {
  lines: readonly string[];
  durationSeconds: number;
}

/** ISO 8601 duration units of each FREQ. */
const PERIODS: Record<string, (interval: number) => string> = {
  HOURLY: (interval) => `PT${interval}H`,
  DAILY: (interval) => `P${interval}D`,
  WEEKLY: (interval) => `P${interval}W`,
  MONTHLY: (interval) => `P${interval}M`,
  YEARLY: (interval) => `P${interval}Y`,
};

const DAY_NAMES: Record<string, string> = {
  MO: "Monday",
  TU: "Tuesday",
  WE: "Wednesday",
  TH: "Thursday",
  FR: "Friday",
  SA: "Saturday",
  SU: "Sunday",
};

/** A weekday as schema.org's `DayOfWeek`; with an ordinal (`-1FR`) as iCalendar's text, which `byDay` also takes. */
function dayOf(day: string): string {
  const name = DAY_NAMES[day];
  return name ? `https://schema.org/${name}` : day;
}

/** Stored lines have no COUNT above the limits they were checked with; reading them needs no other bound. */
const ANY_COUNT = Number.MAX_SAFE_INTEGER;

/**
 * schema.org `Schedule` of a series (docs/behaviour.md, "JSON-LD of an occurrence"): its rule's frequency and BY…
 * parts, its first day, its end, the time and zone of its occurrences and its excluded starts. Null when the rule
 * has a part schema.org cannot say (BYSETPOS). RDATEs are occurrences of their own, not part of the schedule.
 */
export function seriesSchedule(series: ScheduledSeries): SeriesScheduleJsonLd | null {
  const rule = parseRecurrenceLines(series.lines, series, ANY_COUNT);
  const recur = rule.rrule ? ICAL.Recur.fromString(rule.rrule) : null;
  if (recur?.parts.BYSETPOS) return null;
  const byDay = recur?.parts.BYDAY?.map(dayOf);
  const byMonthDay = recur?.parts.BYMONTHDAY;
  const byMonth = recur?.parts.BYMONTH;
  const until = recur?.until ? untilWallTime(recur.until.toICALString(), series) : null;
  const times = series.allDay
    ? {}
    : {
        startTime: series.startLocal.slice(11),
        endTime: wallTimePlus(series.startLocal, series.durationSeconds).slice(11),
      };
  const exceptDate = rule.exdates.map((wall) =>
    series.allDay ? wall.slice(0, 10) : isoWithOffset(wallTimeInstant(wall, series.timezone), series.timezone),
  );
  return {
    "@type": "Schedule",
    ...(recur ? { repeatFrequency: PERIODS[recur.freq]?.(recur.interval) } : {}),
    ...(byDay?.length ? { byDay } : {}),
    ...(byMonthDay?.length ? { byMonthDay } : {}),
    ...(byMonth?.length ? { byMonth } : {}),
    startDate: series.startLocal.slice(0, 10),
    ...(until ? { endDate: until.slice(0, 10) } : {}),
    ...times,
    scheduleTimezone: series.timezone,
    ...(recur?.count ? { repeatCount: recur.count } : {}),
    ...(exceptDate.length ? { exceptDate } : {}),
  };
}

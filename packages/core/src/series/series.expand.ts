import ICAL from "ical.js";
import { DateTime } from "luxon";
import { invalidParam } from "../errors.ts";
import { expandRecurrence } from "../ical/ical.recurrence.ts";
import { WALL_TIME } from "../shared/dates.ts";
import type { SeriesLimits } from "./series.limits.ts";
import { type SeriesFrame, type SeriesRule, untilWallTime } from "./series.rule.ts";

/** The occurrences a series' rule gives (docs/behaviour.md, "Recurring series"), as wall times and instants. */

export interface OccurrenceStart {
  /** The start the rule gives, as a wall time in the series' zone: the occurrence's original start. */
  local: string;
  utc: Date;
}

export interface SeriesStarts {
  starts: OccurrenceStart[];
  /** Does the rule end (COUNT, UNTIL, or dates alone)? Otherwise `starts` reach only to the horizon. */
  ends: boolean;
}

function wallTimeAsUtc(wallTime: string): DateTime {
  return DateTime.fromFormat(wallTime, WALL_TIME, { zone: "UTC" });
}

/** The instant of a wall time in a zone (a time skipped by a DST change is read one hour later, as clocks do). */
export function wallTimeInstant(wallTime: string, zone: string): Date {
  return DateTime.fromFormat(wallTime, WALL_TIME, { zone }).toJSDate();
}

/** The wall time `seconds` of wall-clock time after `wallTime` (the length of an occurrence, kept across DST). */
export function wallTimePlus(wallTime: string, seconds: number): string {
  return wallTimeAsUtc(wallTime).plus({ seconds }).toFormat(WALL_TIME);
}

/** Seconds of wall-clock time from `from` to `to`. */
export function wallTimeSeconds(from: string, to: string): number {
  return wallTimeAsUtc(to).diff(wallTimeAsUtc(from), "seconds").seconds;
}

/** The rule with UNTIL as a floating wall time: the expansion runs in the series' wall times. */
function floatingRule(rrule: string, frame: SeriesFrame): ICAL.Recur {
  const recur = ICAL.Recur.fromString(rrule);
  if (recur.until && !frame.allDay) {
    const wall = untilWallTime(recur.until.toICALString(), frame);
    recur.until = ICAL.Time.fromDateTimeString(wall.replace(" ", "T"));
  }
  const day = Number(frame.startLocal.slice(8, 10));
  if (recur.freq === "YEARLY" && day > 28 && !recur.parts.BYDAY && !recur.parts.BYMONTHDAY) {
    // ical.js rolls a yearly 29 February (or a 31st in BYMONTH's shorter months) over into March; with the day named
    // it skips the years and months that lack it, as RFC 5545 asks.
    recur.parts.BYMONTHDAY = [day];
    recur.parts.BYMONTH ??= [Number(frame.startLocal.slice(5, 7))];
  }
  return recur;
}

function icalStart(frame: SeriesFrame): ICAL.Time {
  return frame.allDay
    ? ICAL.Time.fromDateString(frame.startLocal.slice(0, 10))
    : ICAL.Time.fromDateTimeString(frame.startLocal.replace(" ", "T"));
}

function wallTimeOf(time: ICAL.Time): string {
  return time.isDate ? `${time.toString()} 00:00:00` : time.toString().replace("T", " ");
}

/**
 * The starts of a series, from its first to its rule's end or, for a rule without an end, to `until`: the rule's
 * dates and the RDATEs, without the EXDATEs, the first start always included (RFC 5545). Bounded by the rule's
 * step budget and by `limits.maxOccurrences` (more is a 400 naming `recurrence`).
 */
export function seriesStarts(frame: SeriesFrame, rule: SeriesRule, until: Date, limits: SeriesLimits): SeriesStarts {
  const recur = rule.rrule ? floatingRule(rule.rrule, frame) : null;
  const ends = recur === null || recur.count !== null || recur.until !== null;
  const starts = new Set<string>([frame.startLocal]);
  if (recur) {
    // The window is compared with wall times read as UTC: a day's margin covers any zone's offset.
    const windowEnd = ends ? new Date(Date.UTC(9999, 0)) : new Date(until.getTime() + 86_400_000);
    const expansion = expandRecurrence({
      rule: recur,
      start: icalStart(frame),
      window: { from: new Date(-62_135_596_800_000), until: windowEnd },
      limits: { maxOccurrences: limits.maxOccurrences + 1 },
    });
    if (expansion.cut?.reason === "invalid-rule") throw invalidParam("recurrence", `RRULE: ${expansion.cut.message}`);
    if (expansion.cut?.reason === "step-limit") {
      throw invalidParam(
        "recurrence",
        `RRULE: the rule skips too many candidate dates (${expansion.cut.limit} tested); give a rule whose dates are closer together.`,
      );
    }
    for (const time of expansion.occurrences) starts.add(wallTimeOf(time));
  }
  for (const date of rule.rdates) starts.add(date);
  for (const date of rule.exdates) starts.delete(date);
  const found = [...starts]
    .filter((wall) => wall >= frame.startLocal)
    .sort()
    .map((local) => ({ local, utc: wallTimeInstant(local, frame.timezone) }))
    .filter((start) => ends || start.utc < until);
  if (found.length > limits.maxOccurrences) {
    throw invalidParam(
      "recurrence",
      `A series holds at most ${limits.maxOccurrences} occurrences; this one would hold more${ends ? "" : " before its horizon"}.`,
    );
  }
  return { starts: found, ends };
}

/** The instant up to which a rule without an end has occurrences: the horizon ahead of `now`. */
export function horizonOf(now: Date, limits: SeriesLimits): Date {
  return DateTime.fromJSDate(now, { zone: "UTC" }).plus({ months: limits.horizonMonths }).toJSDate();
}

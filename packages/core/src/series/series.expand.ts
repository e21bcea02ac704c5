import ICAL from "ical.js";
import { DateTime } from "luxon";
import { invalidParam } from "../errors.ts";
import { expandRecurrence, MAX_RULE_STEPS, type RecurrenceCut } from "../ical/ical.recurrence.ts";
import { WALL_TIME } from "../shared/dates.ts";
import { MAX_SERIES_YEARS, type SeriesLimits } from "./series.limits.ts";
import { type SeriesFrame, type SeriesRule, untilWallTime, WEEKDAYS } from "./series.rule.ts";

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
function floatingRule(recur: ICAL.Recur, frame: SeriesFrame): ICAL.Recur {
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

function icalWallTime(wallTime: string, allDay: boolean): ICAL.Time {
  return allDay
    ? ICAL.Time.fromDateString(wallTime.slice(0, 10))
    : ICAL.Time.fromDateTimeString(wallTime.replace(" ", "T"));
}

function wallTimeOf(time: ICAL.Time): string {
  return time.isDate ? `${time.toString()} 00:00:00` : time.toString().replace("T", " ");
}

/** Rules whose step is shorter than a day: they step in elapsed time (RFC 5545's hours are exact durations). */
const SUB_DAILY = new Set(["HOURLY", "MINUTELY", "SECONDLY"]);
const STEP_SECONDS: Record<string, number> = { HOURLY: 3_600, MINUTELY: 60, SECONDLY: 1 };

function stepLimitError(limit: number) {
  return invalidParam(
    "recurrence",
    `RRULE: the rule skips too many candidate dates (${limit} tested); give a rule whose dates are closer together.`,
  );
}

/** Refuses a rule whose expansion stopped short: invalid for the expander, or past the step budget. */
function refuseCut(cut: RecurrenceCut | null): void {
  if (cut?.reason === "invalid-rule") throw invalidParam("recurrence", `RRULE: ${cut.message}`);
  if (cut?.reason === "step-limit") throw stepLimitError(cut.limit);
}

/** Where an expansion starts: the first start, or (for an extension) a start the rule gave since. */
interface Anchor {
  local: string;
  utc: Date;
  /** Is it the series' first start? Then it counts as the rule's first date (RFC 5545) whatever the rule says. */
  first: boolean;
}

/**
 * The rule's dates from `anchor` before `windowEnd` (a far date for a rule that ends), as wall times and instants:
 * at most `maxDates` of them (more tells the caller there are too many).
 */
function ruleDates(
  recur: ICAL.Recur,
  frame: SeriesFrame,
  anchor: Anchor,
  windowEnd: Date,
  maxDates: number,
): OccurrenceStart[] {
  if (SUB_DAILY.has(recur.freq)) return elapsedTimeDates(recur, frame, anchor, windowEnd).slice(0, maxDates);
  const expansion = expandRecurrence({
    rule: floatingRule(recur, frame),
    start: icalWallTime(anchor.local, frame.allDay),
    // The window is compared with wall times read as UTC: a day's margin covers any zone's offset.
    window: { from: new Date(-62_135_596_800_000), until: new Date(windowEnd.getTime() + 86_400_000) },
    limits: { maxOccurrences: maxDates },
  });
  refuseCut(expansion.cut);
  return expansion.occurrences.map((time) => {
    const local = wallTimeOf(time);
    return { local, utc: wallTimeInstant(local, frame.timezone) };
  });
}

/**
 * A sub-daily rule's dates: ical.js steps from the anchor's instant in UTC (an hour is an hour across a DST change,
 * so no two occurrences share an instant and none is two hours from the next), and each instant's wall time in the
 * series' zone is checked against BYMONTH, BYMONTHDAY, BYDAY and BYSETPOS, with COUNT counted after them. In the
 * hour a change to winter time repeats, two occurrences share a wall time. The steps are taken in growing batches
 * until COUNT is reached, within the rule's one step budget.
 */
function elapsedTimeDates(recur: ICAL.Recur, frame: SeriesFrame, anchor: Anchor, windowEnd: Date): OccurrenceStart[] {
  const stepping = new ICAL.Recur({
    freq: recur.freq,
    interval: recur.interval,
    ...(recur.until ? { until: recur.until } : {}),
  });
  const stepMs = (STEP_SECONDS[recur.freq] ?? 1) * recur.interval * 1000;
  const dates: OccurrenceStart[] = [];
  let from = anchor.utc;
  let spent = 0;
  for (let batch = 64; ; batch *= 2) {
    const budget = MAX_RULE_STEPS - spent;
    if (budget <= 0) throw stepLimitError(MAX_RULE_STEPS);
    const expansion = expandRecurrence({
      rule: stepping,
      start: ICAL.Time.fromJSDate(from, true),
      window: { from, until: windowEnd },
      limits: { maxOccurrences: Math.min(batch, budget), maxSteps: budget },
    });
    refuseCut(expansion.cut);
    spent += Math.max(expansion.steps, expansion.occurrences.length);
    for (const time of expansion.occurrences) {
      const utc = time.toJSDate();
      const local = DateTime.fromJSDate(utc, { zone: frame.timezone });
      const isAnchor = utc.getTime() === anchor.utc.getTime();
      if (!(isAnchor && anchor.first) && !inParts(recur, local)) continue;
      if (recur.count !== null && dates.length === recur.count) return dates;
      dates.push({ local: isAnchor ? anchor.local : local.toFormat(WALL_TIME), utc });
    }
    const last = expansion.occurrences.at(-1);
    if (expansion.cut?.reason !== "occurrence-limit" || last === undefined) return dates;
    from = new Date(last.toJSDate().getTime() + stepMs);
  }
}

/** Does a wall time fall in the rule's BY… parts? (A sub-daily period holds one candidate: BYSETPOS keeps it at 1, -1.) */
function inParts(recur: ICAL.Recur, local: DateTime): boolean {
  const { BYMONTH: months, BYMONTHDAY: monthDays, BYDAY: days, BYSETPOS: positions } = recur.parts;
  if (months && !months.includes(local.month)) return false;
  if (monthDays && !monthDays.some((day) => (day > 0 ? day : (local.daysInMonth ?? 31) + day + 1) === local.day)) {
    return false;
  }
  if (days && !days.includes(WEEKDAYS[local.weekday - 1] ?? "")) return false;
  return !positions || positions.includes(1) || positions.includes(-1);
}

/**
 * The last wall time a series' occurrences may start at: MAX_SERIES_YEARS after its first start, and in year 9999
 * at the latest (the last year a date has four digits).
 */
export function spanEndOf(frame: SeriesFrame): string {
  const end = wallTimeAsUtc(frame.startLocal).plus({ years: MAX_SERIES_YEARS }).toFormat(WALL_TIME);
  return end < LAST_WALL_TIME && end.length === LAST_WALL_TIME.length ? end : LAST_WALL_TIME;
}

const LAST_WALL_TIME = "9999-12-31 23:59:59";
/** Past every date a series may hold: a rule that ends is expanded to its end, however far, to see where that is. */
const FAR_FUTURE = new Date(8_640_000_000_000_000);

function spanError(frame: SeriesFrame) {
  return invalidParam(
    "recurrence",
    `RRULE: a series' occurrences start within ${MAX_SERIES_YEARS} years of its first start (by ${spanEndOf(frame).slice(0, 10)}); this rule reaches beyond.`,
  );
}

/**
 * The starts of a series, from its first to its rule's end or, for a rule without an end, to `until` (and at most
 * MAX_SERIES_YEARS after its first start): the rule's dates and the RDATEs, without the EXDATEs, the first start
 * always included (RFC 5545). Bounded by the rule's step budget and by `limits.maxOccurrences`; a rule that ends
 * beyond its span (a COUNT it could only reach after year 9999, too) or gives more is a 400 naming `recurrence`.
 */
export function seriesStarts(frame: SeriesFrame, rule: SeriesRule, until: Date, limits: SeriesLimits): SeriesStarts {
  const recur = rule.rrule ? ICAL.Recur.fromString(rule.rrule) : null;
  const ends = recur === null || recur.count !== null || recur.until !== null;
  const spanEnd = spanEndOf(frame);
  const first: Anchor = {
    local: frame.startLocal,
    utc: wallTimeInstant(frame.startLocal, frame.timezone),
    first: true,
  };
  if (rule.rdates.some((date) => date > spanEnd)) throw spanError(frame);
  const dates = recur ? ruleDates(recur, frame, first, ends ? FAR_FUTURE : until, limits.maxOccurrences + 1) : [];
  // A date past year 9999 has five digits: it is past the span, whatever it compares as.
  const beyond = (start: OccurrenceStart) => start.local > spanEnd || start.local.length !== LAST_WALL_TIME.length;
  if (ends && dates.some(beyond)) throw spanError(frame);
  const found = startsOf(frame, rule, [first, ...dates], frame.startLocal).filter(
    (start) => ends || (start.utc < until && !beyond(start)),
  );
  if (found.length > limits.maxOccurrences) {
    throw invalidParam(
      "recurrence",
      `A series holds at most ${limits.maxOccurrences} occurrences; this one would hold more${ends ? "" : " before its horizon"}.`,
    );
  }
  return { starts: found, ends };
}

/** The rule's dates with the RDATEs from `from` on, without the EXDATEs, each instant once, in order. */
function startsOf(
  frame: SeriesFrame,
  rule: SeriesRule,
  dates: readonly OccurrenceStart[],
  from: string,
): OccurrenceStart[] {
  const excluded = new Set(rule.exdates);
  const byInstant = new Map<number, OccurrenceStart>();
  const rdates = rule.rdates.map((local) => ({ local, utc: wallTimeInstant(local, frame.timezone) }));
  for (const start of [...dates, ...rdates]) {
    if (start.local >= from && !excluded.has(start.local)) byInstant.set(start.utc.getTime(), start);
  }
  return [...byInstant.values()].sort((a, b) => a.utc.getTime() - b.utc.getTime() || (a.local < b.local ? -1 : 1));
}

/** What an extension of a rule without an end finds. */
export interface Extension {
  /** The series' starts in the window. */
  starts: OccurrenceStart[];
  /** The rule's own dates from where it resumed: any of them before the next window may be resumed from. */
  ruleDates: OccurrenceStart[];
}

/**
 * The starts of a rule without an end from `after` (inclusive) to `until` (exclusive), expanded from `resumeFrom`, a
 * date the rule gave at or before `after` (or the first start), so that an extension costs what its window holds, not
 * what the series held before it. Its span (MAX_SERIES_YEARS) ends it like its horizon.
 */
export function extendedStarts(
  frame: SeriesFrame,
  rule: SeriesRule,
  window: { resumeFrom: string; after: Date; until: Date },
): Extension {
  const recur = rule.rrule ? ICAL.Recur.fromString(rule.rrule) : null;
  const spanEnd = spanEndOf(frame);
  const anchor = anchorOf(recur, frame, window.resumeFrom, window.after);
  const dates = recur ? ruleDates(recur, frame, anchor, window.until, MAX_RULE_STEPS) : [];
  const inWindow = (start: OccurrenceStart) => start.utc >= window.after && start.utc < window.until;
  return {
    starts: startsOf(frame, rule, dates, anchor.local).filter((start) => inWindow(start) && start.local <= spanEnd),
    ruleDates: dates.filter((date) => date.utc < window.until),
  };
}

/**
 * Where an extension expands from: a rule stepping in elapsed time from its step last reached before `after` (any
 * step is one of the rule's periods), other rules from the date the last extension left (the first start at first).
 */
function anchorOf(recur: ICAL.Recur | null, frame: SeriesFrame, resumeFrom: string, after: Date): Anchor {
  const firstUtc = wallTimeInstant(frame.startLocal, frame.timezone);
  if (recur && SUB_DAILY.has(recur.freq)) {
    const step = (STEP_SECONDS[recur.freq] ?? 1) * recur.interval * 1000;
    const steps = Math.max(0, Math.floor((after.getTime() - firstUtc.getTime()) / step));
    const utc = new Date(firstUtc.getTime() + steps * step);
    const first = steps === 0;
    return {
      local: first ? frame.startLocal : DateTime.fromJSDate(utc, { zone: frame.timezone }).toFormat(WALL_TIME),
      utc,
      first,
    };
  }
  const first = resumeFrom === frame.startLocal;
  return { local: resumeFrom, utc: first ? firstUtc : wallTimeInstant(resumeFrom, frame.timezone), first };
}

/** The instant up to which a rule without an end has occurrences: the horizon ahead of `now`. */
export function horizonOf(now: Date, limits: SeriesLimits): Date {
  return DateTime.fromJSDate(now, { zone: "UTC" }).plus({ months: limits.horizonMonths }).toJSDate();
}

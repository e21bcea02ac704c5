import ICAL from "ical.js";
import { DateTime } from "luxon";
import { invalidParam } from "../errors.ts";
import { WALL_TIME } from "../shared/dates.ts";
import { MAX_RECURRENCE_DATES } from "./series.limits.ts";

/**
 * A series' RFC 5545 lines (`RRULE`, `RDATE`, `EXDATE`), read in the series' zone (docs/behaviour.md, "Recurring
 * series"): the rule checked part by part, and the listed dates as wall times in that zone, so that an occurrence
 * keeps its wall-clock time across a DST change.
 */
export interface SeriesRule {
  /** The rule's parts in their normal form (`FREQ=WEEKLY;COUNT=10;BYDAY=TU`), or null for RDATEs alone. */
  rrule: string | null;
  /** Added and excluded starts: wall times `YYYY-MM-DD HH:MM:SS` in the series' zone, sorted, distinct. */
  rdates: string[];
  exdates: string[];
}

/** Where a series' dates are read: its zone, whether it is all-day, and its first start (for the time of DATE values). */
export interface SeriesFrame {
  timezone: string;
  allDay: boolean;
  /** The first start as a wall time. */
  startLocal: string;
}

/** The frame of a series, out of its stored row (or anything else that carries it). */
export function frameOf(series: SeriesFrame): SeriesFrame {
  return { timezone: series.timezone, allDay: series.allDay, startLocal: series.startLocal };
}

const FREQUENCIES = new Set(["HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"]);
/** RFC 5545's weekdays, from Monday (luxon's `weekday` 1 to 7). */
export const WEEKDAYS: readonly string[] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/** An integer part within bounds (`-` allowed when `min` is negative); digits only, no regular expression. */
function integerPart(name: string, value: string, min: number, max: number): number {
  const digits = value.startsWith("-") || value.startsWith("+") ? value.slice(1) : value;
  const number = Number(value);
  if (
    digits === "" ||
    [...digits].some((c) => c < "0" || c > "9") ||
    number < min ||
    number > max ||
    (number === 0 && min < 0)
  ) {
    throw invalidRule(`${name}=${value} is not a whole number from ${min} to ${max}${min < 0 ? " other than 0" : ""}.`);
  }
  return number;
}

/**
 * A list of whole numbers in its normal form: each checked, repeats dropped, in ascending order. A list's order and
 * repeats say nothing in RFC 5545, and each value the expander keeps costs it work at every candidate date.
 */
function integerList(name: string, value: string, min: number, max: number): string {
  const numbers = new Set(value.split(",").map((item) => integerPart(name, item, min, max)));
  return [...numbers].sort((a, b) => a - b).join(",");
}

/** `BYDAY`: weekdays, each with an optional ordinal (`-1FR`, `2SU`), repeats dropped, by weekday then ordinal. */
function normalWeekdays(value: string): string {
  const days = new Map<string, { day: number; ordinal: number }>();
  for (const item of value.split(",")) {
    const day = WEEKDAYS.indexOf(item.slice(-2));
    const ordinalText = item.slice(0, -2);
    if (day < 0) throw invalidRule(`BYDAY=${shortened(value)}: "${item}" is not a weekday such as TU or -1FR.`);
    const ordinal = ordinalText === "" ? 0 : integerPart("BYDAY", ordinalText, -53, 53);
    days.set(`${ordinal}${WEEKDAYS[day]}`, { day, ordinal });
  }
  return [...days]
    .sort(([, a], [, b]) => a.day - b.day || a.ordinal - b.ordinal)
    .map(([item]) => (item.startsWith("0") ? item.slice(1) : item))
    .join(",");
}

/** A value quoted in a message: its start, so that a message stays short whatever was sent. */
function shortened(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

function invalidRule(message: string) {
  return invalidParam("recurrence", `RRULE: ${message}`);
}

const UNSUPPORTED_PARTS: Record<string, string> = {
  BYWEEKNO: "weeks of the year are not supported; use BYMONTH with BYDAY or BYMONTHDAY",
  BYYEARDAY: "days of the year are not supported; use BYMONTH with BYMONTHDAY",
  BYSECOND: "seconds are not supported",
  BYMINUTE: "minutes are not supported; an occurrence starts at the first start's time",
  BYHOUR: "hours are not supported; an occurrence starts at the first start's time",
};

/**
 * The rule's parts checked one by one (an unknown part, a bad value, COUNT with UNTIL are 400s naming the part) and
 * written in ical.js' normal order. UNTIL is kept as given: a UTC instant, or a date for all-day series.
 */
export function normalRule(value: string, frame: SeriesFrame, maxOccurrences: number): string {
  const parts = new Map<string, string>();
  for (const part of value.split(";")) {
    const equals = part.indexOf("=");
    const name = (equals < 0 ? part : part.slice(0, equals)).trim().toUpperCase();
    const partValue =
      equals < 0
        ? ""
        : part
            .slice(equals + 1)
            .trim()
            .toUpperCase();
    if (name === "" && partValue === "") continue;
    if (parts.has(name)) throw invalidRule(`${name} is given twice.`);
    if (partValue === "") throw invalidRule(`"${part}" has no value.`);
    parts.set(name, partValue);
  }
  const freq = parts.get("FREQ");
  if (!freq) throw invalidRule("FREQ is required (DAILY, WEEKLY, MONTHLY, YEARLY or HOURLY).");
  if (!FREQUENCIES.has(freq))
    throw invalidRule(`FREQ=${freq}: a series repeats HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY.`);
  if (parts.has("COUNT") && parts.has("UNTIL")) throw invalidRule("COUNT and UNTIL cannot both be given.");
  for (const [name, partValue] of parts) {
    if (name in UNSUPPORTED_PARTS) throw invalidRule(`${name}: ${UNSUPPORTED_PARTS[name]}.`);
    if (name === "FREQ") continue;
    if (name === "INTERVAL") integerPart(name, partValue, 1, 1_000);
    else if (name === "COUNT") integerPart(name, partValue, 1, maxOccurrences);
    else if (name === "UNTIL") checkUntil(partValue, frame);
    else if (name === "BYDAY") parts.set(name, normalWeekdays(partValue));
    else if (name === "BYMONTHDAY") parts.set(name, integerList(name, partValue, -31, 31));
    else if (name === "BYMONTH") parts.set(name, integerList(name, partValue, 1, 12));
    else if (name === "BYSETPOS") parts.set(name, integerList(name, partValue, -366, 366));
    else if (name === "WKST") {
      if (!WEEKDAYS.includes(partValue)) throw invalidRule(`WKST=${shortened(partValue)} is not a weekday such as MO.`);
    } else throw invalidRule(`${name} is not a part of a rule.`);
  }
  if (parts.has("BYSETPOS") && ![...parts.keys()].some((name) => name.startsWith("BY") && name !== "BYSETPOS")) {
    throw invalidRule("BYSETPOS needs another BY… part to choose from.");
  }
  if (frame.allDay && freq === "HOURLY") throw invalidRule("FREQ=HOURLY: an all-day series repeats whole days.");
  if (freq === "HOURLY" && /\d/.test(parts.get("BYDAY") ?? "")) {
    throw invalidRule(
      "BYDAY with an ordinal (1MO, -1FR) takes a MONTHLY or YEARLY rule; an HOURLY rule names weekdays.",
    );
  }
  const unsupported = unsupportedCombination(freq, parts, Number(frame.startLocal.slice(8, 10)));
  if (unsupported) throw invalidRule(unsupported);
  return ICAL.Recur.fromString([...parts].map(([name, partValue]) => `${name}=${partValue}`).join(";")).toString();
}

/**
 * Combinations of parts that the expander (ical.js) answers wrongly, found by the property test against rrule.js
 * (apps/api/test/series/series.property.test.ts): refused with the reason and a rule that says the same, rather than
 * kept with occurrences that differ from what a calendar app would show.
 */
function unsupportedCombination(
  freq: string,
  parts: ReadonlyMap<string, string>,
  startDay: number,
): string | undefined {
  const monthDays = parts.get("BYMONTHDAY");
  const negativeMonthDay = monthDays?.split(",").some((day) => day.startsWith("-")) ?? false;
  if (parts.has("BYDAY") && negativeMonthDay) return "BYDAY with a negative BYMONTHDAY is not supported.";
  if (freq === "MONTHLY" && parts.has("BYSETPOS") && monthDays !== undefined) {
    return "BYSETPOS with BYMONTHDAY is not supported; BYSETPOS chooses among BYDAY's days.";
  }
  if (freq !== "YEARLY") return undefined;
  const days = monthDays === undefined ? (parts.has("BYDAY") ? [] : [startDay]) : monthDays.split(",").map(Number);
  if ((parts.get("BYMONTH")?.includes(",") ?? false) && days.some((day) => day > 28)) {
    return "A day after the 28th in several months of a YEARLY rule is not supported; use FREQ=MONTHLY with BYMONTH.";
  }
  if (parts.has("BYSETPOS")) return "BYSETPOS is not supported in a YEARLY rule; use FREQ=MONTHLY with BYMONTH.";
  if (monthDays === undefined) return undefined;
  if (parts.has("BYDAY"))
    return "BYDAY with BYMONTHDAY is not supported in a YEARLY rule; use FREQ=MONTHLY with BYMONTH.";
  if (!parts.has("BYMONTH")) return "A YEARLY rule with BYMONTHDAY needs BYMONTH; for every month use FREQ=MONTHLY.";
  if (negativeMonthDay && (parts.get("BYMONTH")?.includes(",") ?? false)) {
    return "A negative BYMONTHDAY in a YEARLY rule takes one BYMONTH; for several months use FREQ=MONTHLY with BYMONTH.";
  }
  return undefined;
}

/** UNTIL: `YYYYMMDD` (all-day series) or `YYYYMMDDTHHMMSSZ` (a UTC instant, RFC 5545 with a zoned start). */
function checkUntil(value: string, frame: SeriesFrame): void {
  const wanted = frame.allDay ? "a date (YYYYMMDD)" : "a UTC time (YYYYMMDDTHHMMSSZ)";
  const parsed = frame.allDay
    ? DateTime.fromFormat(value, "yyyyMMdd", { zone: "UTC" })
    : DateTime.fromFormat(value, "yyyyMMdd'T'HHmmss'Z'", { zone: "UTC" });
  if (!parsed.isValid) throw invalidRule(`UNTIL=${value} must be ${wanted} in this series.`);
}

/** The end of a rule's UNTIL as a wall time in the series' zone, for the expansion in wall times. */
export function untilWallTime(until: string, frame: SeriesFrame): string {
  if (frame.allDay) return DateTime.fromFormat(until, "yyyyMMdd").toFormat("yyyy-MM-dd 23:59:59");
  return DateTime.fromFormat(until, "yyyyMMdd'T'HHmmss'Z'", { zone: "UTC" })
    .setZone(frame.timezone)
    .toFormat(WALL_TIME);
}

/**
 * The dates of one RDATE or EXDATE line as wall times in the series' zone: DATE values at the first start's time
 * (its day for all-day series), UTC times and times of another TZID converted. PERIOD values are refused.
 */
export function datesOfLine(property: ICAL.Property, frame: SeriesFrame): string[] {
  if (property.type === "period")
    throw invalidParam("recurrence", `${property.name.toUpperCase()}: periods are not supported; list start times.`);
  const tzid = property.getParameter("tzid");
  const zone = typeof tzid === "string" ? tzid : undefined;
  if (zone !== undefined && !DateTime.local().setZone(zone).isValid) {
    throw invalidParam("recurrence", `${property.name.toUpperCase()}: TZID=${zone} is not an IANA time zone.`);
  }
  const timeOfDay = frame.allDay ? "00:00:00" : frame.startLocal.slice(11);
  return property.getValues().map((value) => {
    if (!(value instanceof ICAL.Time))
      throw invalidParam("recurrence", `${property.name.toUpperCase()} lists dates or times.`);
    const text = value.toString();
    if (value.isDate) return `${text} ${timeOfDay}`;
    if (frame.allDay) return `${text.slice(0, 10)} 00:00:00`;
    const inZone = text.endsWith("Z")
      ? DateTime.fromISO(text, { zone: "UTC" })
      : DateTime.fromISO(text, { zone: zone ?? frame.timezone });
    if (!inZone.isValid) throw invalidParam("recurrence", `${property.name.toUpperCase()}: ${text} is not a time.`);
    // A wall time of the series' own zone stays as written, as the rule's own dates do (also in an hour a DST change
    // skips, which the occurrence's instant then reads an hour later).
    const ownZone = !text.endsWith("Z") && (zone === undefined || zone === frame.timezone);
    return ownZone ? text.replace("T", " ") : inZone.setZone(frame.timezone).toFormat(WALL_TIME);
  });
}

/** The distinct values, sorted. */
function distinctSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

/** Reads the lines of a `recurrence` (each `RRULE:…`, `RDATE…:…` or `EXDATE…:…`, at most one RRULE). */
export function parseRecurrenceLines(lines: readonly string[], frame: SeriesFrame, maxOccurrences: number): SeriesRule {
  let rrule: string | null = null;
  const rdates: string[] = [];
  const exdates: string[] = [];
  for (const line of lines) {
    let property: ICAL.Property;
    try {
      property = ICAL.Property.fromString(line.trim());
    } catch {
      throw invalidParam("recurrence", `"${line.slice(0, 80)}" is not an RRULE, RDATE or EXDATE line.`);
    }
    const name = property.name.toUpperCase();
    if (name === "RRULE") {
      if (rrule !== null) throw invalidParam("recurrence", "A series has one RRULE.");
      rrule = normalRule(line.trim().slice(line.trim().indexOf(":") + 1), frame, maxOccurrences);
    } else if (name === "RDATE") rdates.push(...datesOfLine(property, frame));
    else if (name === "EXDATE") exdates.push(...datesOfLine(property, frame));
    else throw invalidParam("recurrence", `${name} is not a line of a recurrence: give RRULE, RDATE or EXDATE lines.`);
    if (rdates.length + exdates.length > MAX_RECURRENCE_DATES) {
      throw invalidParam("recurrence", `RDATE and EXDATE list at most ${MAX_RECURRENCE_DATES} dates together.`);
    }
  }
  if (rrule === null && rdates.length === 0) throw invalidParam("recurrence", "Give an RRULE or RDATE line.");
  return { rrule, rdates: distinctSorted(rdates), exdates: distinctSorted(exdates) };
}

/** `20310121T190000` (or `20310121` all-day) of a wall time. */
function icalWallTime(wallTime: string, allDay: boolean): string {
  const compact = wallTime.replaceAll("-", "").replaceAll(":", "").replace(" ", "T");
  return allDay ? compact.slice(0, 8) : compact;
}

/** One RDATE or EXDATE line of wall times in the series' zone. */
function dateLine(name: "RDATE" | "EXDATE", dates: readonly string[], frame: SeriesFrame): string {
  const values = dates.map((date) => icalWallTime(date, frame.allDay)).join(",");
  return frame.allDay ? `${name};VALUE=DATE:${values}` : `${name};TZID=${frame.timezone}:${values}`;
}

/** The series' lines in their normal form: the RRULE, then one RDATE and one EXDATE line (as given back on reads). */
export function recurrenceLines(rule: SeriesRule, frame: SeriesFrame): string[] {
  return [
    ...(rule.rrule ? [`RRULE:${rule.rrule}`] : []),
    ...(rule.rdates.length ? [dateLine("RDATE", rule.rdates, frame)] : []),
    ...(rule.exdates.length ? [dateLine("EXDATE", rule.exdates, frame)] : []),
  ];
}

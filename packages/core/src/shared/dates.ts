import * as chrono from "chrono-node";
import { DateTime, IANAZone } from "luxon";

/** The wall-time format the API speaks: `YYYY-MM-DD HH:MM:SS`. */
export const WALL_TIME = "yyyy-MM-dd HH:mm:ss";

/**
 * Zones already found valid. Checking builds an Intl formatter, which is slow enough to show in bulk writes; the
 * set is bounded by the IANA names (case-folded), as invalid names are never kept.
 */
const VALID_ZONES = new Set<string>();

export function isValidTimeZone(zone: string): boolean {
  const key = zone.toLowerCase();
  if (VALID_ZONES.has(key)) return true;
  const valid = IANAZone.isValidZone(zone);
  if (valid) VALID_ZONES.add(key);
  return valid;
}

const RELATIVE = /^([+-]\d{1,6})\s*(second|minute|hour|day|week|month|year)s?$/i;
const UNIX_SECONDS = /^-?\d{9,12}$/;
const COMPACT_DATE = /^\d{8}$/;

/**
 * The numeric dates a value may contain, each in one fixed order: the year first with `-` or `/`, or month, day and
 * year with `/` (the order of PHP's `strtotime`, which the reference uses). Any other numeric date (`13.01.2027`,
 * `3/4/27`) is refused rather than guessed.
 */
const NUMERIC_DATE_FORMATS = ["yyyy-M-d", "yyyy/M/d", "M/d/yyyy"];
const DATE_SEPARATORS = new Set(["-", "/", "."]);

/** A word of digits and date separators with at least two separators, such as `2027-13-01` or `03/04/2027`. */
function isNumericDateWord(word: string): boolean {
  let separators = 0;
  for (const character of word) {
    if (DATE_SEPARATORS.has(character)) separators += 1;
    else if (character < "0" || character > "9") return false;
  }
  return separators >= 2 && word[0] !== undefined && !DATE_SEPARATORS.has(word[0]);
}

/**
 * The calendar date a value names in figures (its one numeric date word), undefined when it has none, null when it
 * has one that does not exist (`2027-13-01`, `02/30/2027`), is in no accepted order, or has several.
 */
function numericDateOf(text: string): DateTime | null | undefined {
  const words = text.split(/\s+/).filter(isNumericDateWord);
  if (words.length === 0) return undefined;
  const [word] = words;
  if (word === undefined || words.length > 1) return null;
  for (const format of NUMERIC_DATE_FORMATS) {
    const date = DateTime.fromFormat(word, format, { zone: "UTC" });
    if (date.isValid) return date;
  }
  return null;
}

function fromRelative(text: string, now: DateTime): DateTime | null {
  const match = RELATIVE.exec(text);
  if (!match) return null;
  const [, amount, unit] = match as unknown as [string, string, string];
  return now.plus({ [`${unit.toLowerCase()}s`]: Number(amount) });
}

function fromNaturalLanguage(text: string, zone: string, now: DateTime): DateTime | null {
  const [result] = chrono.parse(text, { instant: now.toJSDate(), timezone: now.offset }, { forwardDate: false });
  // Only a whole-string match counts: "before my birthday" must not become "my birthday".
  if (result?.index !== 0 || result.text.length !== text.length) return null;
  const { start } = result;
  // chrono swaps a month above 12 with the day (`2030-13-01` as 13 January): a date in figures must exist as written.
  const written = numericDateOf(text);
  if (written === null) return null;
  if (
    written &&
    [written.year, written.month, written.day].join() !==
      [start.get("year"), start.get("month"), start.get("day")].join()
  ) {
    return null;
  }
  if (start.isCertain("timezoneOffset")) return DateTime.fromJSDate(start.date(), { zone });
  // Rebuild from the components in the target zone, so DST changes between now and then are honoured.
  const parts = {
    year: start.get("year") ?? now.year,
    month: start.get("month") ?? now.month,
    day: start.get("day") ?? now.day,
    hour: start.get("hour") ?? 0,
    minute: start.get("minute") ?? 0,
    second: start.get("second") ?? 0,
  };
  const local = DateTime.fromObject(parts, { zone });
  return local.isValid ? local : null;
}

/**
 * Reads a date value of the API in `zone` (docs/behaviour.md, "Date values"): `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD`,
 * ISO 8601 with or without an offset, `YYYYMMDD`, a Unix timestamp (seconds), a date in figures in one of
 * `NUMERIC_DATE_FORMATS` (with a time), a relative `+1 week`, or natural language (`tomorrow 9am`, `next wednesday
 * 4pm`). Values without an offset are wall time in `zone`. Returns null for anything else, and for dates that do
 * not exist (`2030-13-01`, `2027-02-29`).
 */
export function parseDateTime(value: string | number, zone: string, now: Date = new Date()): DateTime | null {
  return storable(readDateTime(value, zone, now));
}

/**
 * Only dates of the years 1 to 9999 can be written as `YYYY-MM-DD` and stored by both databases: `+999999 years`
 * or a timestamp of 10^308 seconds are not dates either.
 */
function storable(dateTime: DateTime | null): DateTime | null {
  return dateTime?.isValid && dateTime.year >= 1 && dateTime.year <= 9999 ? dateTime : null;
}

/** The forms whose instant is fixed by the text alone, whatever the time: timestamps and ISO 8601 / `YYYYMMDD`. */
function fromFixedForm(text: string, zone: string): DateTime | null {
  if (UNIX_SECONDS.test(text)) return DateTime.fromSeconds(Number(text), { zone });
  if (COMPACT_DATE.test(text)) return DateTime.fromFormat(text, "yyyyMMdd", { zone });
  const iso = DateTime.fromISO(text.replace(/^(\d{4}-\d{2}-\d{2}) /, "$1T"), { zone });
  return iso.isValid ? iso : null;
}

function readDateTime(value: string | number, zone: string, now: Date): DateTime | null {
  if (typeof value === "number") {
    return Number.isFinite(value) ? DateTime.fromSeconds(value, { zone }) : null;
  }
  const text = value.trim();
  if (text === "") return null;
  const fixed = fromFixedForm(text, zone);
  if (fixed) return fixed;
  // A date in figures alone is its midnight (the words' reader would make it noon).
  if (isNumericDateWord(text)) {
    const date = numericDateOf(text);
    return date ? DateTime.fromObject({ year: date.year, month: date.month, day: date.day }, { zone }) : null;
  }
  const reference = DateTime.fromJSDate(now, { zone });
  return fromRelative(text, reference) ?? fromNaturalLanguage(text, zone, reference);
}

/** Is this a date value `parseDateTime` reads (in any zone)? For validating parameters before their zone is known. */
export function isDateValue(value: string | number): boolean {
  return parseDateTime(value, "UTC") !== null;
}

/**
 * Does a date value name the same instant whenever it is read (a timestamp, ISO 8601, or a date in figures with
 * its time), unlike `now`, `+1 week` or `tomorrow 9am`? Whether an answer moves with the clock depends on it.
 */
export function isAbsoluteDate(value: string | number): boolean {
  if (typeof value === "number") return true;
  const text = value.trim();
  return fromFixedForm(text, "UTC") !== null || (numericDateOf(text) ?? null) !== null;
}

/** A wall time (`YYYY-MM-DD HH:MM:SS`) in a zone, as a luxon DateTime in that zone. */
export function readWallTime(wallTime: string, zone: string): DateTime {
  return DateTime.fromFormat(wallTime, WALL_TIME, { zone });
}

/** 00:00:00 of the day. */
export function startOfDay(dateTime: DateTime): DateTime {
  return dateTime.startOf("day");
}

/** 23:59:59 of the day (the reference's end of day, without fractions). */
export function endOfDay(dateTime: DateTime): DateTime {
  return dateTime.set({ hour: 23, minute: 59, second: 59, millisecond: 0 });
}

/**
 * English locales whose time-zone names cover different regions: ICU knows `EST` only in en-US, `CEST` and `BST`
 * in en-GB, `AEST` in en-AU, `IST` in en-IN.
 */
const ABBREVIATION_LOCALES = ["en-US", "en-GB", "en-AU", "en-IN"];
const GMT_OFFSET_NAME = /^GMT[+-]/;

/**
 * Abbreviations found so far, by zone and offset (a zone names each of its offsets one way): four Intl formatters
 * per event were a tenth of the time of an event read. Bounded by the valid zones and their offsets.
 */
const ABBREVIATIONS = new Map<string, string>();

/** Formatters of each zone's offset (`GMT-05:00`), or null for a zone Intl does not know (luxon's `UTC+5`). */
const OFFSET_FORMATTERS = new Map<string, ((instant: Date) => number) | null>();
const OFFSET_NAME = /GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/;

/**
 * The offset of a zone at an instant in minutes, as luxon's `DateTime#offset` gives it, from one cached Intl
 * formatter: about a quarter of the cost of building the `DateTime` (luxon formats the instant's parts to find it).
 */
function offsetFormatterOf(zone: string): ((instant: Date) => number) | null {
  const known = OFFSET_FORMATTERS.get(zone);
  if (known !== undefined) return known;
  let formatter: ((instant: Date) => number) | null = null;
  try {
    // The hour alone, so that the text is short: `7 AM GMT-05:00`.
    const format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset", hour: "numeric" });
    formatter = (instant) => {
      const [, sign, hours = "0", minutes = "0", seconds = "0"] = OFFSET_NAME.exec(format.format(instant)) ?? [];
      const total = Number(hours) * 60 + Number(minutes) + Number(seconds) / 60;
      return sign === "-" ? -total : total;
    };
  } catch {
    formatter = null;
  }
  if (isValidTimeZone(zone)) OFFSET_FORMATTERS.set(zone, formatter);
  return formatter;
}

/** The short name of a zone's offset at an instant, e.g. `EST`, `CEST`, `AEST`, or `GMT+8` where none exists. */
export function timezoneAbbreviation(instant: Date, zone: string): string {
  const offset = offsetFormatterOf(zone)?.(instant);
  const known = offset === undefined ? undefined : ABBREVIATIONS.get(`${zone.toLowerCase()} ${offset}`);
  if (known !== undefined) return known;
  const dateTime = DateTime.fromJSDate(instant, { zone });
  const key = `${zone.toLowerCase()} ${dateTime.offset}`;
  const names = ABBREVIATION_LOCALES.map((locale) => dateTime.setLocale(locale).offsetNameShort ?? "");
  const abbreviation = names.find((name) => name !== "" && !GMT_OFFSET_NAME.test(name)) ?? names[0] ?? "";
  ABBREVIATIONS.set(key, abbreviation);
  return abbreviation;
}

/** ISO 8601 with the zone's offset at that instant, without milliseconds: `2018-01-01T10:00:00-05:00`. */
export function isoWithOffset(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toISO({ suppressMilliseconds: true }) ?? instant.toISOString();
}

/** `YYYY-MM-DD HH:MM:SS` of an instant in a zone. */
export function formatWallTime(instant: Date | DateTime, zone: string): string {
  // UTC needs no zone rules: the ISO form has the same digits (years 0–9999), at a fraction of luxon's cost.
  if (instant instanceof Date && zone === "UTC") {
    const iso = instant.toISOString();
    if (iso.length === 24) return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  }
  const dateTime = instant instanceof Date ? DateTime.fromJSDate(instant) : instant;
  return dateTime.setZone(zone).toFormat(WALL_TIME);
}

/** The `*_details` object of the reference: zero-padded strings. */
export function dateDetails(wallTime: string) {
  const [date = "", time = ""] = wallTime.split(" ");
  const [year = "", month = "", day = ""] = date.split("-");
  const [hour = "", minutes = "", seconds = ""] = time.split(":");
  return { year, month, day, hour, minutes, seconds };
}

/** A wall time (`YYYY-MM-DD HH:MM:SS`) in a zone as a UTC instant. */
export function wallTimeToUtc(wallTime: string, zone: string): Date {
  return readWallTime(wallTime, zone).toJSDate();
}

/** Publication dates of a new or updated record: site-local wall time and UTC. */
export function stampsAt(instant: Date, siteZone: string): { local: string; utc: Date } {
  return { local: formatWallTime(instant, siteZone), utc: instant };
}

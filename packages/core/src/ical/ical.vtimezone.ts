import ICAL from "ical.js";
import { DateTime, IANAZone } from "luxon";

/** The years each zone's times fall in, in a calendar (the years its VEVENTs need, not the span between them). */
export type ZoneYears = ReadonlyMap<string, ReadonlySet<number>>;

/**
 * From this year on, every zone changes its offset by one yearly rule (or not at all): the tz database lists explicit
 * dates up to 2087 (Morocco's), then each zone's last rule applies forever, as Node.js' ICU computes it.
 * `ical.vtimezone.test.ts` checks this for every zone Node.js knows.
 */
export const FINAL_RULE_YEAR = 2101;
/** The years sampled to read a zone's last rule: a 28-year cycle puts each date on every weekday. */
const RULE_SAMPLE_YEARS = 28;

interface Transition {
  /** The first instant of the new offset, in ms. */
  at: number;
  fromMinutes: number;
  toMinutes: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Offsets are read a week apart: no zone has changed its offset twice within one (Morocco's Ramadan breaks last a month). */
const STEP_MS = 7 * DAY_MS;

/** Consecutive years (both included). */
interface YearRun {
  from: number;
  to: number;
}

/** The day before the run: a local time early on 1 January can be 31 December in UTC. */
function runStart(run: YearRun): number {
  return Date.UTC(run.from, 0, 0);
}

/** The day after the run: a local time late on 31 December can be 1 January in UTC. */
function runEnd(run: YearRun): number {
  return Date.UTC(run.to + 1, 0, 2);
}

/** The first minute in (before, after] whose offset differs from the one at `before` (the offsets differ at `after`). */
function transitionBetween(zone: IANAZone, before: number, after: number): number {
  const offsetBefore = zone.offset(before);
  let low = before;
  let high = after;
  while (high - low > MINUTE_MS) {
    const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
    if (zone.offset(middle) === offsetBefore) low = middle;
    else high = middle;
  }
  return high;
}

/**
 * Every change of the zone's UTC offset in a run of years, from the tz database Node.js carries (ICU's, the IANA
 * rules): the offset is read once a week and each change narrowed to its minute.
 */
function transitionsIn(zone: IANAZone, run: YearRun): Transition[] {
  const start = runStart(run);
  const end = runEnd(run);
  const transitions: Transition[] = [];
  let previous = zone.offset(start);
  for (let sample = start + STEP_MS; sample < end + STEP_MS; sample += STEP_MS) {
    const offset = zone.offset(sample);
    if (offset === previous) continue;
    transitions.push({
      at: transitionBetween(zone, sample - STEP_MS, sample),
      fromMinutes: previous,
      toMinutes: offset,
    });
    previous = offset;
  }
  return transitions;
}

/** The changes whose onsets fall in the year itself. */
function changesOfYear(transitions: readonly Transition[], year: number): Transition[] {
  return transitions.filter((change) => change.at >= Date.UTC(year, 0) && change.at < Date.UTC(year + 1, 0));
}

/** The wall time (in the offset before it) a change starts at, as RFC 5545 3.6.5 writes an observance's DTSTART. */
function onsetOf(at: number, fromMinutes: number): DateTime {
  return DateTime.fromMillis(at + fromMinutes * MINUTE_MS, { zone: "utc" });
}

/** A STANDARD or DAYLIGHT observance starting at `at`, repeating by `rule` when given. */
function observance(zone: IANAZone, at: number, fromMinutes: number, toMinutes: number, rule?: string): ICAL.Component {
  const local = DateTime.fromMillis(at, { zone });
  const component = new ICAL.Component(local.isInDST ? "daylight" : "standard");
  const wall = onsetOf(at, fromMinutes);
  component.addPropertyWithValue(
    "dtstart",
    ICAL.Time.fromData({
      year: wall.year,
      month: wall.month,
      day: wall.day,
      hour: wall.hour,
      minute: wall.minute,
      second: wall.second,
      isDate: false,
    }),
  );
  if (rule) component.addPropertyWithValue("rrule", ICAL.Recur.fromString(rule));
  component.addPropertyWithValue("tzoffsetfrom", ICAL.UtcOffset.fromSeconds(fromMinutes * 60));
  component.addPropertyWithValue("tzoffsetto", ICAL.UtcOffset.fromSeconds(toMinutes * 60));
  const name = local.offsetNameShort;
  // Only real abbreviations (CEST, EST); ICU's "GMT+3" for zones without one says nothing TZOFFSETTO does not.
  if (name && /^[A-Z]{3,5}$/.test(name)) component.addPropertyWithValue("tzname", name);
  return component;
}

const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/**
 * The RRULE of the i-th change of each year, read from the onsets of the sampled years: the same month, time and
 * weekday each year, on its nth or last such weekday of the month, or on one day of a fixed week (`Fri>=23`); or
 * undefined when the onsets follow no such rule (Cairo's "last Thursday at 24:00" falls on a Friday in October or
 * November).
 */
function ruleOf(onsets: readonly DateTime[]): string | undefined {
  const [first] = onsets;
  if (!first) return undefined;
  const same = (value: (onset: DateTime) => number) => onsets.every((onset) => value(onset) === value(first));
  if (!same((onset) => onset.month) || !same((onset) => onset.hour * 60 + onset.minute)) return undefined;
  const month = `FREQ=YEARLY;BYMONTH=${first.month}`;
  if (!same((onset) => onset.weekday))
    return same((onset) => onset.day) ? `${month};BYMONTHDAY=${first.day}` : undefined;
  const weekday = WEEKDAYS[first.weekday - 1];
  if (onsets.every((onset) => onset.day + 7 > (onset.daysInMonth ?? 31))) return `${month};BYDAY=-1${weekday}`;
  const nth = (onset: DateTime) => Math.ceil(onset.day / 7);
  if (same(nth)) return `${month};BYDAY=${nth(first)}${weekday}`;
  const days = onsets.map((onset) => onset.day);
  const low = Math.min(...days);
  if (Math.max(...days) - low > 6) return undefined;
  const week = Array.from({ length: 7 }, (_, index) => low + index).filter((day) => day <= 31);
  return `${month};BYDAY=${weekday};BYMONTHDAY=${week.join(",")}`;
}

/** The RRULEs of a zone's changes from FINAL_RULE_YEAR on (one per change in a year), or undefined (see `ruleOf`). */
function finalRulesOf(zone: IANAZone): string[] | undefined {
  const run = { from: FINAL_RULE_YEAR, to: FINAL_RULE_YEAR + RULE_SAMPLE_YEARS - 1 };
  const transitions = transitionsIn(zone, run);
  const years = Array.from({ length: RULE_SAMPLE_YEARS }, (_, index) => changesOfYear(transitions, run.from + index));
  const count = years[0]?.length ?? 0;
  if (years.some((changes) => changes.length !== count)) return undefined;
  const rules: string[] = [];
  for (let index = 0; index < count; index++) {
    const onsets = years.flatMap((changes) => changes.slice(index, index + 1));
    const rule = ruleOf(onsets.map((change) => onsetOf(change.at, change.fromMinutes)));
    if (!rule) return undefined;
    rules.push(rule);
  }
  return rules;
}

/** Each zone's last rule, read once (there are a few hundred zones). */
const finalRules = new Map<string, string[] | undefined>();

function cachedFinalRules(zone: IANAZone): string[] | undefined {
  if (!finalRules.has(zone.name)) finalRules.set(zone.name, finalRulesOf(zone));
  return finalRules.get(zone.name);
}

/** The years as runs of consecutive years, in order. */
function runsOf(years: readonly number[]): YearRun[] {
  const runs: YearRun[] = [];
  for (const year of [...years].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && year <= last.to + 1) last.to = Math.max(last.to, year);
    else runs.push({ from: year, to: year });
  }
  return runs;
}

/**
 * The observances of a run of years: its offset at the start (a change to itself), then each change; the changes of
 * a one-year run from FINAL_RULE_YEAR on repeat by `rules`, one per change of the year.
 */
function runObservances(zone: IANAZone, run: YearRun, rules?: readonly string[]): ICAL.Component[] {
  const start = runStart(run);
  const initial = zone.offset(start);
  const transitions = transitionsIn(zone, run);
  const ofYear = rules ? changesOfYear(transitions, run.from) : [];
  return [
    observance(zone, start, initial, initial),
    ...transitions.map((change) => {
      const index = ofYear.indexOf(change);
      return observance(zone, change.at, change.fromMinutes, change.toMinutes, rules?.[index]);
    }),
  ];
}

/** Can one year's changes, repeated by the zone's last rules, give every later year's? */
function repeatsFrom(zone: IANAZone, year: number, rules: readonly string[] | undefined): rules is readonly string[] {
  return (
    rules !== undefined && changesOfYear(transitionsIn(zone, { from: year, to: year }), year).length === rules.length
  );
}

/**
 * The VTIMEZONE of an IANA zone for the years a calendar needs, with the zone's real history in them (offsets and
 * DST rules as they were, e.g. São Paulo's DST until 2019, Moscow's changes of 2011 and 2014). Each run of
 * consecutive years before FINAL_RULE_YEAR has its offset at the start and its changes; the years from
 * FINAL_RULE_YEAR on are covered by the first one's changes with the RRULEs that repeat them every later year (as
 * Google and Outlook write zones), or, for a zone whose last rule RRULE cannot write, by each year's own. So its size
 * grows with the years needed before FINAL_RULE_YEAR (at most three observances each), not with the span between
 * them. Built with ical.js; undefined for a name that is no IANA zone.
 */
export function vtimezoneOf(name: string, years: ReadonlySet<number>): string | undefined {
  const zone = IANAZone.create(name);
  if (!zone.isValid) return undefined;
  const early = [...years].filter((year) => year < FINAL_RULE_YEAR);
  const late = [...years].filter((year) => year >= FINAL_RULE_YEAR).sort((a, b) => a - b);
  const [firstLate] = late;
  const rules = firstLate === undefined ? undefined : cachedFinalRules(zone);
  const component = new ICAL.Component("vtimezone");
  component.addPropertyWithValue("tzid", name);
  component.addPropertyWithValue("x-lic-location", name);
  const observances = [
    ...runsOf(early).flatMap((run) => runObservances(zone, run)),
    ...(firstLate !== undefined && repeatsFrom(zone, firstLate, rules)
      ? runObservances(zone, { from: firstLate, to: firstLate }, rules)
      : runsOf(late).flatMap((run) => runObservances(zone, run))),
  ];
  for (const item of observances) component.addSubcomponent(item);
  return component.toString();
}

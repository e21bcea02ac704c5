import { getVtimezoneComponent } from "@touch4it/ical-timezones";
import ICAL from "ical.js";
import { IANAZone } from "luxon";
import { findIana } from "windows-iana";
import type { Slices } from "../shared/time-slices.ts";
import { expandRecurrence } from "./ical.recurrence.ts";

/**
 * The IANA zone of a TZID as exporters write it: an IANA name (also with a `/` prefix or tzurl.org's path), or a
 * Microsoft name as Outlook writes it (`W. Europe Standard Time`, mapped through CLDR's table); undefined for
 * anything else (a custom VTIMEZONE must then define it).
 */
export function ianaZoneOf(tzid: string): string | undefined {
  const name = tzid.replace(/^\/+/, "").replace(/^.*zoneinfo(-outlook)?\//, "");
  if (IANAZone.isValidZone(name)) return name;
  const [windows] = findIana(tzid.trim());
  return windows && IANAZone.isValidZone(windows) ? windows : undefined;
}

/**
 * The most candidate times one observance's RRULE may test (see `MAX_RULE_STEPS`): a yearly rule spends one a year,
 * so this covers 2,000 years from the observance's DTSTART (Outlook's start in 1601 included), at about 70 ms.
 */
export const MAX_OBSERVANCE_STEPS = 2_000;

/** What the expansions of one file have left to spend, zones and series together. */
export interface StepBudget {
  remaining: number;
}

/** Why the times of a TZID cannot be read (undefined when they can). */
export type ZoneProblems = ReadonlyMap<string, string>;

/** The years a zone's onsets are written for: those the file's times in that zone need, and a year either side. */
interface Years {
  first: number;
  last: number;
}

const MIN_YEAR = 1;
const MAX_YEAR = 9_999;

/** 1 January of `year` (Date.UTC would read the years 0–99 as 1900–1999). */
function startOfYear(year: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, 0, 1);
  return date;
}

/** The year of a raw jCal date, date-time or period value ("2031-07-15T10:00:00", ["2031-…", "PT1H"]). */
function yearOf(value: unknown): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const year = typeof text === "string" ? Number.parseInt(text.slice(0, 4), 10) : Number.NaN;
  return Number.isInteger(year) && year >= MIN_YEAR && year <= MAX_YEAR ? year : undefined;
}

/**
 * The years each TZID of the calendar's events is needed for: the years its values name (read from the raw values:
 * reading them as times would resolve their zone now) up to the horizon recurring series are expanded to.
 */
async function yearsByZone(calendar: ICAL.Component, horizonYear: number, slices: Slices): Promise<Map<string, Years>> {
  const years = new Map<string, Years>();
  for (const event of calendar.getAllSubcomponents("vevent")) {
    for (const property of event.getAllProperties()) {
      const tzid = property.getParameter("tzid");
      if (typeof tzid !== "string") continue;
      for (const year of property.jCal.slice(3).map(yearOf)) {
        if (year === undefined) continue;
        const known = years.get(tzid) ?? { first: year, last: Math.max(year, horizonYear) };
        years.set(tzid, { first: Math.min(known.first, year), last: Math.max(known.last, year) });
      }
    }
    await slices.pause();
  }
  return years;
}

/** A local (floating) time of a raw observance value. */
function localTime(value: ICAL.Time): ICAL.Time {
  return ICAL.Time.fromData({
    year: value.year,
    month: value.month,
    day: value.day,
    hour: value.hour,
    minute: value.minute,
    second: value.second,
    isDate: value.isDate,
  });
}

function offsetSeconds(observance: ICAL.Component, name: "tzoffsetfrom" | "tzoffsetto"): number {
  const offset = observance.getFirstPropertyValue(name);
  return offset instanceof ICAL.UtcOffset ? offset.toSeconds() : 0;
}

/** The onsets an observance's RRULE gives up to `until`, or why it cannot be expanded within its bound. */
function ruleOnsets(observance: ICAL.Component, until: Date, budget: StepBudget): ICAL.Time[] | string {
  const dtstart = observance.getFirstPropertyValue("dtstart");
  const rule = observance.getFirstPropertyValue("rrule");
  if (!(rule instanceof ICAL.Recur) || !(dtstart instanceof ICAL.Time)) return [];
  const recur = rule.clone();
  // As ical.js reads it: a UTC UNTIL is the local time of the offset in force before the onset.
  if (recur.until && recur.until.zone === ICAL.Timezone.utcTimezone) {
    const local = recur.until.clone();
    local.adjust(0, 0, 0, offsetSeconds(observance, "tzoffsetfrom"));
    recur.until = localTime(local);
  }
  const maxSteps = Math.min(MAX_OBSERVANCE_STEPS, budget.remaining);
  const expansion = expandRecurrence({
    rule: recur,
    start: localTime(dtstart),
    window: { from: startOfYear(MIN_YEAR), until },
    limits: { maxOccurrences: maxSteps, maxSteps },
  });
  budget.remaining -= expansion.steps;
  const name = observance.name.toUpperCase();
  const before = until.toISOString().slice(0, 10);
  if (expansion.cut?.reason === "invalid-rule")
    return `the RRULE of its ${name} observance is invalid: ${expansion.cut.message}.`;
  if (expansion.cut)
    return `the RRULE of its ${name} observance tests more than ${maxSteps} candidate times before ${before}.`;
  return expansion.occurrences;
}

function rdatesOf(observance: ICAL.Component): ICAL.Time[] {
  return observance
    .getAllProperties("rdate")
    .flatMap((property) => property.getValues())
    .flatMap((value) => (value instanceof ICAL.Time ? [value] : value instanceof ICAL.Period ? [value.start] : []))
    .map(localTime);
}

/**
 * An observance as explicit onsets, so that ical.js never expands a rule itself: one RDATE per onset its RRULE and
 * RDATEs give up to the years' end, from the last one before the years (the offset in force when they begin). An
 * observance without onsets there is left out (undefined); one without RRULE and RDATE is its DTSTART, as it was.
 */
function explicitObservance(
  observance: ICAL.Component,
  years: Years,
  budget: StepBudget,
): ICAL.Component | undefined | string {
  const explicit = new ICAL.Component(structuredClone(observance.toJSON()));
  if (!observance.hasProperty("rrule") && !observance.hasProperty("rdate")) return explicit;
  const until = startOfYear(years.last + 2);
  const fromRule = ruleOnsets(observance, until, budget);
  if (typeof fromRule === "string") return fromRule;
  const from = startOfYear(years.first - 1).getTime() / 1000;
  const onsets = [...fromRule, ...rdatesOf(observance)]
    .filter((onset) => onset.toUnixTime() < until.getTime() / 1000)
    .sort((a, b) => a.compare(b));
  const lastBefore = onsets.filter((onset) => onset.toUnixTime() < from).at(-1);
  const kept = onsets.filter((onset) => onset === lastBefore || onset.toUnixTime() >= from);
  if (!kept.length) return undefined;
  explicit.removeAllProperties("rrule");
  explicit.removeAllProperties("rdate");
  // ical.js reads only the first value of each RDATE property.
  for (const onset of kept) explicit.addPropertyWithValue("rdate", onset);
  return explicit;
}

/** The VTIMEZONE `source` under the name `tzid`, every observance as explicit onsets, or why it cannot be. */
function explicitZone(source: ICAL.Component, tzid: string, years: Years, budget: StepBudget): ICAL.Component | string {
  const zone = new ICAL.Component("vtimezone");
  zone.addPropertyWithValue("tzid", tzid);
  for (const observance of source.getAllSubcomponents()) {
    if (observance.name !== "standard" && observance.name !== "daylight") continue;
    const explicit = explicitObservance(observance, years, budget);
    if (typeof explicit === "string") return explicit;
    if (explicit) zone.addSubcomponent(explicit);
  }
  if (!zone.getAllSubcomponents().length) return `none of its observances has an onset before ${years.last + 2}.`;
  return zone;
}

export interface ZoneOptions {
  now: Date;
  /** How far recurring series are expanded, in months from the later of their start and now. */
  horizonMonths: number;
  budget: StepBudget;
  /** The slices the work runs in (see `ical.import.slices.ts`). */
  slices: Slices;
}

/**
 * Gives the calendar, in place of its own VTIMEZONEs, a zone for every TZID its events use, in which ical.js finds
 * them (it prefers a calendar's own zones to its global registry, which is therefore not used): the tz database's
 * rules for the names that resolve to an IANA zone, the file's own VTIMEZONE for the others. Every observance's
 * rule is first expanded by the bounded expander into explicit onsets over the years the file's times need, so
 * that no time conversion makes ical.js iterate a rule (it would without a bound: `FREQ=DAILY;BYMONTH=2;
 * BYMONTHDAY=30` never ends). Answers why the times of each TZID that cannot be read this way cannot be: an unknown
 * zone, or a custom zone whose rules do not expand within their bound. An IANA zone that does not (its times span
 * more than 2,000 years) is left to the tz database alone: its times are converted without ical.js.
 *
 * Must run before any time of the calendar's events is read: ical.js resolves a value's zone when it reads it.
 */
export async function useExplicitZones(calendar: ICAL.Component, options: ZoneOptions): Promise<ZoneProblems> {
  const own = new Map<string, ICAL.Component>();
  for (const component of calendar.getAllSubcomponents("vtimezone")) {
    const tzid = component.getFirstPropertyValue("tzid");
    if (typeof tzid === "string") own.set(tzid, component);
  }
  calendar.removeAllSubcomponents("vtimezone");
  const horizon = new Date(options.now);
  horizon.setUTCMonth(horizon.getUTCMonth() + options.horizonMonths);
  const problems = new Map<string, string>();
  for (const [tzid, years] of await yearsByZone(calendar, horizon.getUTCFullYear(), options.slices)) {
    const iana = ianaZoneOf(tzid);
    const block = iana ? getVtimezoneComponent(iana) : undefined;
    const source = block ? ICAL.Component.fromString(block) : own.get(tzid);
    if (!source) {
      problems.set(tzid, `Unknown time zone "${tzid}" (no VTIMEZONE defines it).`);
      continue;
    }
    const zone = explicitZone(source, tzid, years, options.budget);
    if (typeof zone === "string") {
      if (!iana) problems.set(tzid, `The time zone "${tzid}" cannot be used: ${zone}`);
    } else {
      calendar.addSubcomponent(zone);
      // ical.js re-reads a zone's onsets each time a later year is asked for: ask for the last year once.
      calendar.getTimeZoneByID(tzid).utcOffset(ICAL.Time.fromData({ year: years.last + 1, month: 12, day: 31 }));
    }
    await options.slices.pause();
  }
  return problems;
}

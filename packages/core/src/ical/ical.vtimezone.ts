import ICAL from "ical.js";
import { DateTime, IANAZone } from "luxon";

/** The years a calendar's times fall in (both included). */
export interface YearSpan {
  from: number;
  to: number;
}

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

/** The day before the span: a local time early on 1 January can be 31 December in UTC. */
function spanStart(span: YearSpan): number {
  return Date.UTC(span.from, 0, 0);
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
 * Every change of the zone's UTC offset in the span, from the tz database Node.js carries (ICU's, the IANA rules):
 * the offset is read once a week and each change narrowed to its minute.
 */
function transitionsOf(zone: IANAZone, span: YearSpan): Transition[] {
  const start = spanStart(span);
  const end = Date.UTC(span.to + 1, 0, 2);
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

/** A STANDARD or DAYLIGHT observance starting at `at` (written in the offset before it, RFC 5545 3.6.5). */
function observance(zone: IANAZone, at: number, fromMinutes: number, toMinutes: number): ICAL.Component {
  const local = DateTime.fromMillis(at, { zone });
  const component = new ICAL.Component(local.isInDST ? "daylight" : "standard");
  const wall = DateTime.fromMillis(at + fromMinutes * MINUTE_MS, { zone: "utc" });
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
  component.addPropertyWithValue("tzoffsetfrom", ICAL.UtcOffset.fromSeconds(fromMinutes * 60));
  component.addPropertyWithValue("tzoffsetto", ICAL.UtcOffset.fromSeconds(toMinutes * 60));
  const name = local.offsetNameShort;
  // Only real abbreviations (CEST, EST); ICU's "GMT+3" for zones without one says nothing TZOFFSETTO does not.
  if (name && /^[A-Z]{3,5}$/.test(name)) component.addPropertyWithValue("tzname", name);
  return component;
}

/**
 * The VTIMEZONE of an IANA zone for the years a calendar covers, with the zone's real history in them (offsets and
 * DST rules as they were, e.g. São Paulo's DST until 2019, Moscow's changes of 2011 and 2014): the offset at the
 * span's start, then one observance per change. Built with ical.js; undefined for a name that is no IANA zone.
 */
export function vtimezoneOf(name: string, span: YearSpan): string | undefined {
  const zone = IANAZone.create(name);
  if (!zone.isValid) return undefined;
  const start = spanStart(span);
  const initial = zone.offset(start);
  const component = new ICAL.Component("vtimezone");
  component.addPropertyWithValue("tzid", name);
  component.addPropertyWithValue("x-lic-location", name);
  component.addSubcomponent(observance(zone, start, initial, initial));
  for (const transition of transitionsOf(zone, span)) {
    component.addSubcomponent(observance(zone, transition.at, transition.fromMinutes, transition.toMinutes));
  }
  return component.toString();
}

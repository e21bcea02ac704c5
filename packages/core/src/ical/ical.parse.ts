import ICAL from "ical.js";
import { DateTime } from "luxon";
import { type DomainError, domainError } from "../errors.ts";
import { requireWithinCap } from "./ical.import.caps.ts";
import type { ImportCaps } from "./ical.import.schemas.ts";
import { importSlices } from "./ical.import.slices.ts";
import { parseInPieces } from "./ical.import.text.ts";
import { categoriesOf, descriptionOf, organizerOf, text, venueOf, websiteOf } from "./ical.properties.ts";
import { expandRecurrence, MAX_RULE_STEPS, type RecurrenceCut, type RecurrenceWindow } from "./ical.recurrence.ts";
import { ianaZoneOf, type StepBudget, useExplicitZones, type ZoneProblems } from "./ical.zones.ts";

/** One event to write, as `POST /events` takes it, with the identity and version of its source. */
export interface ImportedOccurrence {
  /** `YYYYMMDDTHHMMSSZ` of the occurrence in its series, "" for a single event. */
  recurrenceId: string;
  body: Record<string, unknown>;
}

/** An occurrence a RECURRENCE-ID VEVENT changes: its body, and the fields in which it differs from the master. */
export interface ImportedException extends ImportedOccurrence {
  overrides: string[];
}

/** A recurring master kept as a series: its lines in its zone, its own body (the first occurrence) and exceptions. */
export interface ImportedRule {
  lines: string[];
  master: Record<string, unknown>;
  exceptions: ImportedException[];
}

export interface ImportedSeries {
  uid: string;
  sequence: number;
  lastModified: Date | null;
  cancelled: boolean;
  recurring: boolean;
  occurrences: ImportedOccurrence[];
  /** Of a recurring master: the series to keep (null for single events and instances without their master). */
  rule: ImportedRule | null;
}

export interface ImportSkip {
  uid: string;
  reason: string;
}

export interface ExpandOptions {
  siteZone: string;
  horizonMonths: number;
  seriesCap: number;
  now: Date;
  caps: ImportCaps;
}

/** The options of one file's reading, with how its times are read. */
interface ReadOptions extends ExpandOptions {
  reader: TimeReader;
}

const WALL_TIME = "yyyy-MM-dd HH:mm:ss";

class SkipSeries extends Error {}

/** A malformed file is a 400 naming the line (ical.js names the text at fault; the line is found from it). */
function malformed(text: string, error: unknown): DomainError {
  const message = error instanceof Error ? error.message : String(error);
  const quoted = [...message.matchAll(/"([^"]+)"/g)].pop()?.[1];
  const lines = text.split(/\r?\n/);
  const index = quoted ? lines.findIndex((line) => line.includes(quoted)) : -1;
  const where = index >= 0 ? ` (line ${index + 1})` : "";
  return domainError(
    "rest_invalid_icalendar",
    { reason: `The iCalendar file is malformed${where}: ${message}` },
    index >= 0 ? { line: index + 1 } : {},
  );
}

/** A property's time as the instant and zone to store; all-day values stay dates. */
interface ReadTime {
  wall: string;
  timezone: string;
  allDay: boolean;
  utc: DateTime;
}

/** How times are read: in the site's zone when they have none, and which TZIDs cannot be read (and why). */
interface TimeReader {
  siteZone: string;
  zoneProblems: ZoneProblems;
}

function readTime(time: ICAL.Time, tzid: string | undefined, reader: TimeReader): ReadTime {
  const { siteZone } = reader;
  const fields = {
    year: time.year,
    month: time.month,
    day: time.day,
    hour: time.hour,
    minute: time.minute,
    second: time.second,
  };
  if (time.isDate) {
    const date = DateTime.fromObject({ year: time.year, month: time.month, day: time.day }, { zone: siteZone });
    return { wall: date.toFormat(WALL_TIME), timezone: siteZone, allDay: true, utc: date.toUTC() };
  }
  if (time.zone === ICAL.Timezone.utcTimezone) {
    const utc = DateTime.fromObject(fields, { zone: "utc" });
    const local = utc.setZone(siteZone);
    return { wall: local.toFormat(WALL_TIME), timezone: siteZone, allDay: false, utc };
  }
  if (tzid === undefined) {
    const local = DateTime.fromObject(fields, { zone: siteZone });
    return { wall: local.toFormat(WALL_TIME), timezone: siteZone, allDay: false, utc: local.toUTC() };
  }
  const iana = ianaZoneOf(tzid);
  if (iana) {
    const local = DateTime.fromObject(fields, { zone: iana });
    return { wall: local.toFormat(WALL_TIME), timezone: iana, allDay: false, utc: local.toUTC() };
  }
  const problem = reader.zoneProblems.get(tzid);
  if (problem) throw new SkipSeries(problem);
  const utc = DateTime.fromSeconds(time.toUnixTime(), { zone: "utc" });
  const local = utc.setZone(siteZone);
  return { wall: local.toFormat(WALL_TIME), timezone: siteZone, allDay: false, utc };
}

function tzidOf(component: ICAL.Component, name: string): string | undefined {
  const tzid = component.getFirstProperty(name)?.getParameter("tzid");
  return typeof tzid === "string" ? tzid : undefined;
}

function bodyOf(component: ICAL.Component, start: ReadTime, end: ReadTime): Record<string, unknown> {
  const title = text(component, "summary");
  if (!title) throw new SkipSeries("The event has no SUMMARY.");
  // An all-day event's DTEND is the day after its last day.
  const lastDay = DateTime.fromFormat(end.wall, WALL_TIME).minus({ days: 1 });
  const endWall = start.allDay
    ? DateTime.max(lastDay, DateTime.fromFormat(start.wall, WALL_TIME)).toFormat(WALL_TIME)
    : end.wall;
  const venue = venueOf(component);
  const organizer = organizerOf(component);
  const categories = categoriesOf(component);
  const description = descriptionOf(component);
  const website = websiteOf(component);
  return {
    title,
    start_date: start.allDay ? start.wall.slice(0, 10) : start.wall,
    end_date: start.allDay ? endWall.slice(0, 10) : endWall,
    timezone: start.timezone,
    all_day: start.allDay,
    ...(description ? { description } : {}),
    ...(website ? { website } : {}),
    ...(venue ? { venue } : {}),
    ...(organizer ? { organizer } : {}),
    ...(categories.length ? { categories } : {}),
  };
}

/** The UTC instant of a RECURRENCE-ID as the events keep it. */
function recurrenceIdOf(time: ReadTime): string {
  return time.utc.toFormat("yyyyLLdd'T'HHmmss'Z'");
}

function occurrenceOf(event: ICAL.Event, start: ICAL.Time, end: ICAL.Time, reader: TimeReader, recurring: boolean) {
  const component = event.component;
  const startTime = readTime(start, tzidOf(component, "dtstart"), reader);
  const endTime = readTime(end, tzidOf(component, component.hasProperty("dtend") ? "dtend" : "dtstart"), reader);
  return {
    recurrenceId: recurring ? recurrenceIdOf(startTime) : "",
    body: bodyOf(component, startTime, endTime),
  };
}

function versionOf(component: ICAL.Component): { sequence: number; lastModified: Date | null } {
  const sequence = Number(component.getFirstPropertyValue("sequence") ?? 0);
  const modified = component.getFirstPropertyValue("last-modified");
  return {
    sequence: Number.isFinite(sequence) ? sequence : 0,
    lastModified: modified instanceof ICAL.Time ? modified.toJSDate() : null,
  };
}

function isCancelled(component: ICAL.Component): boolean {
  return String(component.getFirstPropertyValue("status") ?? "").toUpperCase() === "CANCELLED";
}

/**
 * The most candidate times the recurring series of one file may test together (see `MAX_RULE_STEPS` for one rule):
 * parsing is synchronous, so this bounds how long one file holds the process. A series found after it is spent is
 * skipped.
 */
const MAX_FILE_STEPS = 100_000;

const FILE_BUDGET_SPENT = `The file's recurring series already tested ${MAX_FILE_STEPS} candidate times together.`;

function datesOf(component: ICAL.Component, name: "rdate" | "exdate"): ICAL.Time[] {
  return component
    .getAllProperties(name)
    .flatMap((property) => property.getValues())
    .flatMap((value) => (value instanceof ICAL.Time ? [value] : value instanceof ICAL.Period ? [value.start] : []));
}

/** The key an EXDATE removes an occurrence by: its instant, or its day when the EXDATE is a date. */
const instantKey = (time: ICAL.Time) => `t${time.toUnixTime()}`;
const dayKey = (time: ICAL.Time) => `d${time.toString().slice(0, 10)}`;

function cutReason(cut: RecurrenceCut | null, horizon: DateTime): string | undefined {
  if (cut?.reason === "invalid-rule") return `The RRULE cannot be expanded: ${cut.message}`;
  if (cut?.reason === "step-limit") {
    return `The RRULE tests more than ${cut.limit} candidate times before ${horizon.toISODate()} (its BY parts reject nearly every one); write it with a coarser FREQ.`;
  }
  return undefined;
}

/**
 * The starts of a master's occurrences: its RRULEs' (each expanded within the window and the file's step budget)
 * and RDATEs, without its EXDATEs, in order, at most `seriesCap`.
 */
function occurrenceStarts(master: ICAL.Event, window: RecurrenceWindow, options: ReadOptions, budget: StepBudget) {
  const component = master.component;
  const horizon = DateTime.fromJSDate(window.until);
  const starts = new Map<string, ICAL.Time>();
  for (const property of component.getAllProperties("rrule")) {
    const rule = property.getFirstValue();
    if (!(rule instanceof ICAL.Recur)) continue;
    if (budget.remaining <= 0) throw new SkipSeries(FILE_BUDGET_SPENT);
    const maxSteps = Math.min(MAX_RULE_STEPS, budget.remaining);
    const limits = { maxOccurrences: options.seriesCap, maxSteps };
    const expansion = expandRecurrence({ rule, start: master.startDate, window, limits });
    budget.remaining -= expansion.steps;
    const fileBudgetSpent = expansion.cut?.reason === "step-limit" && maxSteps < MAX_RULE_STEPS;
    if (fileBudgetSpent) throw new SkipSeries(FILE_BUDGET_SPENT);
    const reason = cutReason(expansion.cut, horizon);
    if (reason) throw new SkipSeries(reason);
    for (const start of expansion.occurrences) starts.set(instantKey(start), start);
  }
  const [from, until] = [window.from.getTime() / 1000, window.until.getTime() / 1000];
  for (const date of datesOf(component, "rdate")) {
    if (date.toUnixTime() >= from && date.toUnixTime() < until) starts.set(instantKey(date), date);
  }
  const excluded = new Set(datesOf(component, "exdate").map((date) => (date.isDate ? dayKey(date) : instantKey(date))));
  const kept = [...starts.values()].filter((start) => !excluded.has(instantKey(start)) && !excluded.has(dayKey(start)));
  if (kept.length === 0) throw new SkipSeries(`The series has no occurrence before ${horizon.toISODate()}.`);
  return kept.sort((a, b) => a.compare(b)).slice(0, options.seriesCap);
}

/**
 * A master event with RRULE/RDATE: its occurrences (EXDATEs left out, overridden instances as overridden,
 * cancelled instances dropped) from its start up to the horizon (counted from the later of its start and now)
 * and at most `seriesCap` of them.
 */
function expandSeries(
  master: ICAL.Event,
  exceptions: ICAL.Event[],
  options: ReadOptions,
  budget: StepBudget,
): ImportedOccurrence[] {
  for (const exception of exceptions) master.relateException(exception);
  const start = DateTime.fromJSDate(master.startDate.toJSDate());
  const from = DateTime.max(start, DateTime.fromJSDate(options.now));
  const window = { from: start.toJSDate(), until: from.plus({ months: options.horizonMonths }).toJSDate() };
  const occurrences: ImportedOccurrence[] = [];
  for (const next of occurrenceStarts(master, window, options, budget)) {
    const details = master.getOccurrenceDetails(next);
    if (isCancelled(details.item.component)) continue;
    const occurrence = occurrenceOf(details.item, details.startDate, details.endDate, options.reader, true);
    const original = readTime(details.recurrenceId, tzidOf(master.component, "dtstart"), options.reader);
    occurrences.push({ ...occurrence, recurrenceId: recurrenceIdOf(original) });
  }
  return occurrences;
}

/**
 * A line of dates (RDATE or EXDATE) as wall times in the master's zone: `20300312` for an all-day series, else
 * `20300312T190000` (a DATE value at the start's time of day).
 */
function dateLine(name: "RDATE" | "EXDATE", times: readonly ReadTime[], start: ReadTime): string[] {
  if (!times.length) return [];
  const values = times.map((time) => {
    const wall = time.allDay
      ? `${time.wall.slice(0, 10)} ${start.wall.slice(11)}`
      : time.utc.setZone(start.timezone).toFormat(WALL_TIME);
    const compact = wall.replaceAll("-", "").replaceAll(":", "").replace(" ", "T");
    return start.allDay ? compact.slice(0, 8) : compact;
  });
  const parameters = start.allDay ? "VALUE=DATE" : `TZID=${start.timezone}`;
  return [`${name};${parameters}:${values.join(",")}`];
}

/** The RRULE with UNTIL as a UTC instant (a date for all-day series), as a series reads it. */
function ruleLine(rule: ICAL.Recur, start: ReadTime, tzid: string | undefined, reader: TimeReader): string {
  const recur = rule.clone();
  if (recur.until) {
    const until = readTime(recur.until, recur.until.zone === ICAL.Timezone.utcTimezone ? undefined : tzid, reader);
    recur.until = start.allDay
      ? ICAL.Time.fromDateString(until.utc.setZone(start.timezone).toISODate() ?? "")
      : ICAL.Time.fromDateTimeString(until.utc.toFormat("yyyy-LL-dd'T'HH:mm:ss'Z'"));
  }
  return `RRULE:${recur.toString()}`;
}

/** The parameter our own feeds mark the EXDATE of the starts they leave out with (see `ical.feed.series.ts`). */
const UNLISTED = "x-calendar-unlisted";

function timesOf(component: ICAL.Component, name: "rdate" | "exdate", reader: TimeReader): ReadTime[] {
  return component
    .getAllProperties(name)
    .filter((property) => property.getParameter(UNLISTED) === undefined)
    .flatMap((property) => {
      const tzid = property.getParameter("tzid");
      return property
        .getValues()
        .flatMap((value) => (value instanceof ICAL.Time ? [value] : value instanceof ICAL.Period ? [value.start] : []))
        .map((time) => readTime(time, typeof tzid === "string" ? tzid : undefined, reader));
    });
}

/** The fields in which an occurrence's body differs from the master's. */
function overriddenFields(body: Record<string, unknown>, master: Record<string, unknown>): string[] {
  const names = new Set([...Object.keys(body), ...Object.keys(master)]);
  return [...names].filter((name) => JSON.stringify(body[name]) !== JSON.stringify(master[name])).sort();
}

/**
 * A recurring master as a series: its RRULE, RDATEs and EXDATEs (a cancelled instance becomes an EXDATE) read in
 * its start's zone, its own body, and each RECURRENCE-ID VEVENT as an exception with the fields it overrides.
 */
function ruleOf(master: ICAL.Event, exceptions: readonly ICAL.Event[], reader: TimeReader): ImportedRule {
  const component = master.component;
  const tzid = tzidOf(component, "dtstart");
  const start = readTime(master.startDate, tzid, reader);
  const body = occurrenceOf(master, master.startDate, master.endDate, reader, false).body;
  const originals = exceptions.map((event) => ({
    event,
    original: readTime(event.recurrenceId, tzidOf(event.component, "recurrence-id"), reader),
  }));
  const cancelled = originals.filter(({ event }) => isCancelled(event.component)).map(({ original }) => original);
  const rules = component
    .getAllProperties("rrule")
    .map((property) => property.getFirstValue())
    .filter((rule): rule is ICAL.Recur => rule instanceof ICAL.Recur)
    .map((rule) => ruleLine(rule, start, tzid, reader));
  return {
    lines: [
      ...rules,
      ...dateLine("RDATE", timesOf(component, "rdate", reader), start),
      ...dateLine("EXDATE", [...timesOf(component, "exdate", reader), ...cancelled], start),
    ],
    master: body,
    exceptions: originals
      .filter(({ event }) => !isCancelled(event.component))
      .map(({ event, original }) => {
        const occurrence = occurrenceOf(event, event.startDate, event.endDate, reader, true);
        return {
          ...occurrence,
          recurrenceId: recurrenceIdOf(original),
          overrides: overriddenFields(occurrence.body, body),
        };
      }),
  };
}

function seriesOf(uid: string, components: ICAL.Component[], options: ReadOptions, budget: StepBudget): ImportedSeries {
  // Without `exceptions`, ical.js would look for them among all the file's VEVENTs, for each one (quadratic).
  const events = components.map((component) => new ICAL.Event(component, { exceptions: [] }));
  const master = events.find((event) => !event.isRecurrenceException());
  const exceptions = events.filter((event) => event.isRecurrenceException());
  const head = master ?? exceptions[0];
  if (!head) throw new SkipSeries("The event is empty.");
  const versions = components.map(versionOf);
  const sequence = Math.max(...versions.map((version) => version.sequence));
  const modified = versions.flatMap((version) => (version.lastModified ? [version.lastModified.getTime()] : []));
  const lastModified = modified.length ? new Date(Math.max(...modified)) : null;
  const cancelled = master ? isCancelled(master.component) : false;
  if (master?.isRecurring()) {
    return {
      uid,
      sequence,
      lastModified,
      cancelled,
      recurring: true,
      occurrences: expandSeries(master, exceptions, options, budget),
      rule: ruleOf(master, exceptions, options.reader),
    };
  }
  if (master) {
    return {
      uid,
      sequence,
      lastModified,
      cancelled,
      recurring: false,
      occurrences: [occurrenceOf(master, master.startDate, master.endDate, options.reader, false)],
      rule: null,
    };
  }
  // Instances of a series whose master is not in the file: each is kept with its RECURRENCE-ID.
  const occurrences = exceptions
    .filter((event) => !isCancelled(event.component))
    .map((event) => {
      const occurrence = occurrenceOf(event, event.startDate, event.endDate, options.reader, true);
      const original = readTime(event.recurrenceId, tzidOf(event.component, "recurrence-id"), options.reader);
      return { ...occurrence, recurrenceId: recurrenceIdOf(original) };
    });
  return { uid, sequence, lastModified, cancelled: false, recurring: true, occurrences, rule: null };
}

export interface ParsedCalendar {
  series: ImportedSeries[];
  skipped: ImportSkip[];
}

/**
 * The events of an iCalendar file, grouped by UID; a series that cannot be read is skipped with its reason. A file
 * with more recurring series or events than `options.caps` allow is a 413. The work runs in time slices (ical.js is
 * synchronous): the event loop is given back between pieces of the text, time zones and UIDs.
 */
export async function parseCalendarFile(text: string, options: ExpandOptions): Promise<ParsedCalendar> {
  const slices = importSlices();
  let calendar: ICAL.Component;
  try {
    calendar = await parseInPieces(text, slices);
  } catch (error) {
    throw malformed(text, error);
  }
  if (calendar.name !== "vcalendar") {
    throw domainError("rest_invalid_icalendar", { reason: "The iCalendar file must hold a VCALENDAR." });
  }
  const budget: StepBudget = { remaining: MAX_FILE_STEPS };
  const zoneProblems = await useExplicitZones(calendar, { ...options, budget, slices });
  const read: ReadOptions = { ...options, reader: { siteZone: options.siteZone, zoneProblems } };
  const byUid = new Map<string, ICAL.Component[]>();
  const skipped: ImportSkip[] = [];
  for (const [index, component] of calendar.getAllSubcomponents("vevent").entries()) {
    await slices.pause();
    const uid = text0(component.getFirstPropertyValue("uid"));
    if (!uid) {
      skipped.push({ uid: `#${index + 1}`, reason: "The event has no UID." });
      continue;
    }
    const group = byUid.get(uid);
    if (group) group.push(component);
    else byUid.set(uid, [component]);
  }
  const recurring = [...byUid.values()].filter((components) => components.some(isRecurringMaster));
  requireWithinCap(options.caps, "recurring series", recurring.length);
  const series: ImportedSeries[] = [];
  let events = 0;
  for (const [uid, components] of byUid) {
    try {
      const found = seriesOf(uid, components, read, budget);
      // Checked series by series: a file far over the cap is refused before all its occurrences are read.
      events += found.occurrences.length;
      requireWithinCap(options.caps, "events", events);
      series.push(found);
    } catch (error) {
      if (!(error instanceof SkipSeries)) throw error;
      skipped.push({ uid, reason: error.message });
    }
    await slices.pause();
  }
  return { series, skipped };
}

function isRecurringMaster(component: ICAL.Component): boolean {
  return !component.hasProperty("recurrence-id") && (component.hasProperty("rrule") || component.hasProperty("rdate"));
}

function text0(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

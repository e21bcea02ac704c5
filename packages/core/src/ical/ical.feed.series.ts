import { DomainError } from "../errors.ts";
import { seriesStarts, wallTimeInstant, wallTimePlus } from "../series/series.expand.ts";
import type { SeriesLimits } from "../series/series.limits.ts";
import { frameOf, parseRecurrenceLines, recurrenceLines, type SeriesFrame } from "../series/series.rule.ts";
import { formatWallTime } from "../shared/dates.ts";
import type { FeedEntry, FeedEvent } from "./ical.feed.ts";
import type { ZoneYears } from "./ical.vtimezone.ts";

/**
 * A feed's events as VEVENTs (docs/behaviour.md, "Subscribing to a series (iCalendar)"): a series is one master
 * VEVENT with its lines, and one VEVENT with a RECURRENCE-ID per selected occurrence that differs from the master;
 * the rule's starts without a selected occurrence are excluded, so that a reader expands the feed into exactly the
 * occurrences the same query lists.
 */

/** What the feed reads of a series. */
export interface FeedSeries {
  id: number;
  uid: string;
  /** The stored lines, a JSON array. */
  recurrence: string;
  timezone: string;
  allDay: boolean;
  startLocal: string;
  durationSeconds: number;
  /** Occurrences exist up to this instant; null when the rule ends. */
  generatedUntilUtc: Date | null;
}

/** The parameter that marks the EXDATE line of the starts a feed leaves out: an import of the feed ignores it. */
export const UNLISTED_PARAMETER = "X-CALENDAR-UNLISTED";

/** The feed's VEVENTs, and the years of its series' occurrences (by zone) that their VTIMEZONEs must cover. */
export interface FeedEntries {
  entries: FeedEntry[];
  years: ZoneYears;
}

const utcWallTime = (wallTime: string, zone: string) => formatWallTime(wallTimeInstant(wallTime, zone), "UTC");

/**
 * Rule starts by what they depend on: feeds expand the same series on every request, and an edit of its rule,
 * start, zone or horizon changes the key. Bounded like the VTIMEZONE cache.
 */
const startsByRule = new Map<string, string[] | null>();
const MAX_CACHED_RULES = 200;

function cachedRuleStarts(series: FeedSeries, limits: SeriesLimits): string[] | null {
  const { recurrence, timezone, allDay, startLocal, generatedUntilUtc } = series;
  const key = JSON.stringify([recurrence, timezone, allDay, startLocal, generatedUntilUtc?.getTime(), limits]);
  const known = startsByRule.get(key);
  if (known !== undefined) return known;
  if (startsByRule.size >= MAX_CACHED_RULES) startsByRule.clear();
  const starts = ruleStarts(series, limits);
  startsByRule.set(key, starts);
  return starts;
}

/** The rule's starts as wall times, or null when the stored rule no longer expands within the limits. */
function ruleStarts(series: FeedSeries, limits: SeriesLimits): string[] | null {
  try {
    const frame = frameOf(series);
    const rule = parseRecurrenceLines(JSON.parse(series.recurrence) as string[], frame, limits.maxOccurrences);
    const until = series.generatedUntilUtc ?? new Date(Date.UTC(9999, 0));
    return seriesStarts(frame, rule, until, limits).starts.map((start) => start.local);
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

/** What a reader sees of an event besides its schedule and identity. */
function shownFields(event: FeedEvent): string {
  const { title, description, status, all_day, venue, organizer, categories, image } = event;
  return JSON.stringify([title, description, status, all_day, venue, organizer, categories, image]);
}

function isOnSchedule(event: FeedEvent, series: FeedSeries, originalStart: string): boolean {
  return (
    event.timezone === series.timezone &&
    event.start_date === originalStart &&
    event.end_date === wallTimePlus(originalStart, series.durationSeconds)
  );
}

/** The master VEVENT's fields: those of an occurrence that overrides nothing (else the first), at the rule's first start. */
function masterOf(series: FeedSeries, occurrences: readonly FeedEvent[]): FeedEvent | undefined {
  const plain = occurrences.find((event) => {
    const original = event.source?.occurrence;
    return original && !original.overrides && isOnSchedule(event, series, original.originalStartLocal);
  });
  const base = plain ?? occurrences[0];
  if (!base) return undefined;
  const end = wallTimePlus(series.startLocal, series.durationSeconds);
  return {
    ...base,
    timezone: series.timezone,
    start_date: series.startLocal,
    end_date: end,
    utc_start_date: utcWallTime(series.startLocal, series.timezone),
    utc_end_date: utcWallTime(end, series.timezone),
  };
}

function differsFromMaster(event: FeedEvent, master: FeedEvent, series: FeedSeries): boolean {
  const original = event.source?.occurrence;
  if (!original || original.overrides) return true;
  return !isOnSchedule(event, series, original.originalStartLocal) || shownFields(event) !== shownFields(master);
}

/** The EXDATE line of the rule's starts that have no selected occurrence, marked as the feed's own. */
function unlistedLine(starts: readonly string[], frame: SeriesFrame): string[] {
  const [line] = recurrenceLines({ rrule: null, rdates: [], exdates: [...starts] }, frame);
  if (line === undefined) return [];
  const colon = line.indexOf(":");
  return [`${line.slice(0, colon)};${UNLISTED_PARAMETER}=TRUE${line.slice(colon)}`];
}

/** A series' master and its differing occurrences, or null when its rule cannot be written (each stands alone). */
function seriesEntries(series: FeedSeries, occurrences: readonly FeedEvent[], limits: SeriesLimits) {
  const starts = cachedRuleStarts(series, limits);
  const master = masterOf(series, occurrences);
  if (!starts || !master) return null;
  const listed = new Set(occurrences.map((event) => event.source?.occurrence?.originalStartLocal));
  const frame = frameOf(series);
  const lines = [
    ...(JSON.parse(series.recurrence) as string[]),
    ...unlistedLine(
      starts.filter((start) => !listed.has(start)),
      frame,
    ),
  ];
  const sequence = Math.max(0, ...occurrences.map((event) => event.source?.sequence ?? 0));
  const masterEntry: FeedEntry = { event: master, uid: series.uid, sequence, recurrence: lines };
  const exceptions = new Map(
    occurrences
      .filter((event) => differsFromMaster(event, master, series))
      .map((event): [number, FeedEntry] => [
        event.id,
        {
          event,
          uid: series.uid,
          sequence: event.source?.sequence ?? 0,
          recurrenceId: {
            local: event.source?.occurrence?.originalStartLocal ?? event.start_date,
            timezone: series.timezone,
            allDay: series.allDay,
          },
        },
      ]),
  );
  return { master: masterEntry, exceptions, years: occurrenceYears(starts, series.durationSeconds) };
}

/** The years an occurrence starting at each of `starts` (wall times) starts or ends in. */
function occurrenceYears(starts: readonly string[], durationSeconds: number): Set<number> {
  const years = new Set<number>();
  for (const start of starts) {
    years.add(Number(start.slice(0, 4)));
    years.add(new Date(Date.parse(`${start.replace(" ", "T")}Z`) + durationSeconds * 1000).getUTCFullYear());
  }
  return years;
}

/** An event that is not written as part of a series: its own VEVENT. */
export function standaloneEntry(event: FeedEvent, uidOf: (event: FeedEvent) => string): FeedEntry {
  return { event, uid: uidOf(event), sequence: event.source?.sequence ?? 0 };
}

/** A VEVENT of the feed in the list's order: written from what is read already, or the row of an event to read. */
export type PlannedEntry<Row> = { entry: FeedEntry } | { row: Row };

/**
 * The feed's VEVENTs in the list's order, from its rows and the events of those in a series (a master needs all of
 * its series' selected occurrences): a series' master where its first selected occurrence is, each differing
 * occurrence where it is, the occurrences of a series that cannot be written as themselves (`uidOf`); the other rows'
 * events are left to read. A row whose event is not among `occurrences` (gone since the rows were read) is left out.
 */
export function planFeed<Row extends { id: number; seriesId: number | null }>(
  rows: readonly Row[],
  occurrences: readonly FeedEvent[],
  seriesById: ReadonlyMap<number, FeedSeries>,
  limits: SeriesLimits,
  uidOf: (event: FeedEvent) => string,
): { planned: Array<PlannedEntry<Row>>; years: ZoneYears } {
  const bySeries = new Map<number, FeedEvent[]>();
  for (const event of occurrences) {
    const seriesId = event.source?.occurrence?.seriesId;
    if (seriesId !== undefined) bySeries.set(seriesId, [...(bySeries.get(seriesId) ?? []), event]);
  }
  const grouped = new Map(
    [...bySeries].flatMap(([id, events]) => {
      const series = seriesById.get(id);
      const written = series && seriesEntries(series, events, limits);
      return written ? [[id, written] as const] : [];
    }),
  );
  const read = new Map(occurrences.map((event) => [event.id, event]));
  const planned: Array<PlannedEntry<Row>> = [];
  const mastered = new Set<number>();
  const years = new Map<string, Set<number>>();
  for (const row of rows) {
    const event = row.seriesId === null ? undefined : read.get(row.id);
    if (!event) {
      if (row.seriesId === null) planned.push({ row });
      continue;
    }
    const seriesId = event.source?.occurrence?.seriesId;
    const written = seriesId === undefined ? undefined : grouped.get(seriesId);
    if (seriesId === undefined || !written) {
      planned.push({ entry: standaloneEntry(event, uidOf) });
      continue;
    }
    if (!mastered.has(seriesId)) {
      mastered.add(seriesId);
      planned.push({ entry: written.master });
      if (!written.master.event.all_day) {
        const zone = written.master.event.timezone;
        years.set(zone, new Set([...(years.get(zone) ?? []), ...written.years]));
      }
    }
    const exception = written.exceptions.get(event.id);
    if (exception) planned.push({ entry: exception });
  }
  return { planned, years };
}

/** The entries of events all read already (see `planFeed`). */
export function feedEntriesOf(
  events: readonly FeedEvent[],
  seriesById: ReadonlyMap<number, FeedSeries>,
  limits: SeriesLimits,
  uidOf: (event: FeedEvent) => string,
): FeedEntries {
  const rows = events.map((event) => ({ id: event.id, seriesId: event.source?.occurrence?.seriesId ?? null, event }));
  const occurrences = events.filter((event) => event.source?.occurrence);
  const { planned, years } = planFeed(rows, occurrences, seriesById, limits, uidOf);
  const entries = planned.map((item) => ("entry" in item ? item.entry : standaloneEntry(item.row.event, uidOf)));
  return { entries, years };
}

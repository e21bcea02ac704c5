import { getEvent, getEventBySlug } from "../events/event.get.service.ts";
import { listEvents, listSelectionOf } from "../events/event.list.service.ts";
import type { EventOutput } from "../events/event.output.schemas.ts";
import type { EventListQuery } from "../events/event.schemas.ts";
import type { EventFilter } from "../events/event.where.ts";
import type { Scope } from "../scope.ts";
import { seriesLimitsOf } from "../series/series.create.ts";
import { slicesOf } from "../shared/time-slices.ts";
import { readFeedEventsById, readFeedOutline } from "./ical.feed.read.ts";
import { type FeedSeries, feedEntriesOf, type PlannedEntry, planFeed, standaloneEntry } from "./ical.feed.series.ts";
import {
  type FeedEntry,
  type FeedEvent,
  type FeedHeader,
  type FeedOutline,
  type FeedSchedule,
  feedEventOf,
  type IcalSource,
  icalSourceOf,
} from "./ical.feed.ts";
import { eventUidHost } from "./ical.identity.ts";
import type { ZoneYears } from "./ical.vtimezone.ts";

export interface FeedOptions {
  /** The most events a feed holds (`CALENDAR_ICAL_MAX_EVENTS`). */
  maxEvents: number;
  /** The site's name, for `X-WR-CALNAME`. */
  siteName: string;
  /** The host of `CALENDAR_PUBLIC_URL`, when set: the UIDs of events end with it. */
  publicHost?: string | undefined;
}

/** Clients poll a subscribed feed this often. */
const REFRESH_SECONDS = 3_600;

async function sourcesOf(scope: Scope, events: readonly EventOutput[]): Promise<Map<number, IcalSource>> {
  if (!events.length) return new Map();
  const rows = await scope.db.event.findMany({
    where: { id: { in: events.map((event) => event.id) } },
    select: {
      id: true,
      icalUid: true,
      icalRecurrenceId: true,
      sequence: true,
      seriesId: true,
      originalStartLocal: true,
      overrides: true,
    },
  });
  return new Map(rows.map((row) => [row.id, icalSourceOf(row)]));
}

/** Events read as their JSON, with their iCalendar identity. */
async function feedEventsOf(scope: Scope, events: readonly EventOutput[]): Promise<FeedEvent[]> {
  const sources = await sourcesOf(scope, events);
  return events.map((event) => feedEventOf(event, sources.get(event.id)));
}

function headerOf(scope: Scope, options: FeedOptions): FeedHeader {
  return {
    name: `${options.siteName} (${scope.language})`,
    language: scope.language,
    timezone: scope.site.timezone,
    refreshSeconds: REFRESH_SECONDS,
  };
}

/** The UID of an event that is not written as part of a series: its imported UID, else its own. */
export function eventUid(event: Pick<FeedEvent, "id" | "source">, uidHost: string): string {
  return event.source?.uid ?? `event-${event.id}@${uidHost}`;
}

async function seriesOf(scope: Scope, events: readonly FeedEvent[]): Promise<Map<number, FeedSeries>> {
  const ids = [...new Set(events.flatMap((event) => event.source?.occurrence?.seriesId ?? []))];
  if (!ids.length) return new Map();
  const rows = await scope.db.eventSeries.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      uid: true,
      recurrence: true,
      timezone: true,
      allDay: true,
      startLocal: true,
      durationSeconds: true,
      generatedUntilUtc: true,
    },
  });
  return new Map(rows.map((row) => [row.id, row]));
}

/** The UIDs of the events of this calendar that are not written as part of a series. */
async function uidsOf(scope: Scope, options: FeedOptions): Promise<(event: FeedEvent) => string> {
  const uidHost = await eventUidHost(scope, options.publicHost);
  return (event) => eventUid(event, uidHost);
}

/** The feed's VEVENTs: series as one master and their differing occurrences, other events as themselves. */
async function entriesOf(scope: Scope, options: FeedOptions, events: readonly FeedEvent[]) {
  const series = await seriesOf(scope, events);
  return feedEntriesOf(events, series, seriesLimitsOf(scope.site), await uidsOf(scope, options));
}

/** The renderer, loaded at the first feed with its libraries rather than at start. */
const renderer = () => import("./ical.feed.render.ts");

/** The events a feed reads and writes at a time: what it holds of their rows, objects and text. */
const PAGE_EVENTS = 100;

/** What a feed writes: the schedules of its VEVENTs in their order (for the VTIMEZONEs), and the VEVENTs by page. */
interface FeedPlan {
  schedules: readonly FeedSchedule[];
  /** The years of the series' occurrences, by zone. */
  years: ZoneYears;
  pages: AsyncIterable<readonly FeedEntry[]> | Iterable<readonly FeedEntry[]>;
}

function* pagesOf<T>(items: readonly T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += PAGE_EVENTS) yield items.slice(start, start + PAGE_EVENTS);
}

/** The longest a feed works (reads, converts, writes) before it lets other requests run: a description may be 1 MiB. */
const RENDER_SLICE_MS = 20;

/**
 * The VCALENDAR a page of VEVENTs at a time: the header and VTIMEZONEs, each page's VEVENTs, the footer. The VEVENTs
 * are written one at a time (their descriptions' plain text a slice at a time), giving the event loop back every
 * `RENDER_SLICE_MS`.
 */
async function* calendarText(scope: Scope, options: FeedOptions, plan: FeedPlan): AsyncGenerator<string> {
  const { calendarFrame, eventsText, plainTextsOf } = await renderer();
  const now = new Date();
  const { head, foot } = calendarFrame(headerOf(scope, options), plan.schedules, plan.years);
  yield head;
  const pause = slicesOf(RENDER_SLICE_MS).pause;
  for await (const page of plan.pages) {
    for (const entry of page) {
      // Before each VEVENT, the slice counts the page's read too.
      await pause();
      yield eventsText([entry], now, await plainTextsOf([entry], pause));
    }
  }
  yield foot;
}

/** A feed of events read already. */
async function listedPlan(scope: Scope, options: FeedOptions, events: readonly FeedEvent[]): Promise<FeedPlan> {
  const { entries, years } = await entriesOf(scope, options, events);
  return { schedules: entries.map((entry) => entry.event), years, pages: pagesOf(entries) };
}

/** Each page's VEVENTs: those planned, and the events left to read, read together. */
async function* readPages(
  scope: Scope,
  planned: ReadonlyArray<PlannedEntry<FeedOutline>>,
  password: string | undefined,
  uidOf: (event: FeedEvent) => string,
): AsyncGenerator<FeedEntry[]> {
  for (const page of pagesOf(planned)) {
    const ids = page.flatMap((item) => ("row" in item ? [item.row.id] : []));
    const events = new Map((await readFeedEventsById(scope, ids, password)).map((event) => [event.id, event]));
    yield page.flatMap((item) => {
      if ("entry" in item) return [item.entry];
      const event = events.get(item.row.id);
      return event ? [standaloneEntry(event, uidOf)] : [];
    });
  }
}

/**
 * A feed read a page at a time: its rows first (what places each event), the occurrences of its series (a master
 * needs them all), then the other events a page at a time as they are written. The rows give the VTIMEZONEs before
 * the events are read; an event deleted meanwhile is left out.
 */
async function pagedPlan(scope: Scope, options: FeedOptions, filter: EventFilter, password: string | undefined) {
  const outline = await readFeedOutline(scope, filter, options.maxEvents, password);
  const inSeries = outline.flatMap((row) => (row.seriesId === null ? [] : [row.id]));
  const occurrences = await readFeedEventsById(scope, inSeries, password);
  const uidOf = await uidsOf(scope, options);
  const series = await seriesOf(scope, occurrences);
  const { planned, years } = planFeed(outline, occurrences, series, seriesLimitsOf(scope.site), uidOf);
  const schedules = planned.map((item) => ("entry" in item ? item.entry.event : item.row.schedule));
  return { schedules, years, pages: readPages(scope, planned, password, uidOf) };
}

/**
 * One occurrence alone: its own VEVENT with its series' UID and its RECURRENCE-ID, so that a calendar holding the
 * series replaces that instance; other events as in a feed.
 */
async function renderOne(scope: Scope, options: FeedOptions, output: EventOutput): Promise<string> {
  const event = feedEventOf(output, (await sourcesOf(scope, [output])).get(output.id));
  const occurrence = event.source?.occurrence;
  const series = occurrence ? (await seriesOf(scope, [event])).get(occurrence.seriesId) : undefined;
  const { renderCalendar, plainTextsOf } = await renderer();
  if (!occurrence || !series) {
    const { entries, years } = await entriesOf(scope, options, [event]);
    return renderCalendar(
      headerOf(scope, options),
      entries,
      years,
      new Date(),
      await plainTextsOf(entries, slicesOf(RENDER_SLICE_MS).pause),
    );
  }
  const entry: FeedEntry = {
    event,
    uid: series.uid,
    sequence: event.source?.sequence ?? 0,
    recurrenceId: { local: occurrence.originalStartLocal, timezone: series.timezone, allDay: series.allDay },
  };
  const plainTexts = await plainTextsOf([entry], slicesOf(RENDER_SLICE_MS).pause);
  return renderCalendar(headerOf(scope, options), [entry], undefined, new Date(), plainTexts);
}

/**
 * The feed's events through `GET /events` itself: the list's page of presented events. The feed's own statements
 * (`readFeedOutline`, then `readFeedEventsById`) must give the same (`ical.feed.read.test.ts`); a search around a point (ordered with its distances) still reads this way.
 */
export async function listedFeedEvents(scope: Scope, query: EventListQuery, maxEvents: number): Promise<FeedEvent[]> {
  const { events } = await listEvents(scope, { ...query, page: 1, per_page: maxEvents });
  return feedEventsOf(scope, events);
}

/**
 * `GET /events.ics`: the events the same query on `GET /events` selects (filters, visibility, default window,
 * redaction of protected events), not paged: the first `maxEvents` in the list's order. Its text comes a page of
 * events at a time, each read as the one before is written: a feed never holds all its events nor its whole text
 * as one string. A search around a point (ordered by its distances) reads them through the list.
 */
export async function eventFeed(
  scope: Scope,
  query: EventListQuery,
  options: FeedOptions,
): Promise<AsyncIterable<string>> {
  const { distances, filter } = await listSelectionOf(scope, query);
  const plan = distances
    ? await listedPlan(scope, options, await listedFeedEvents(scope, query, options.maxEvents))
    : await pagedPlan(scope, options, filter, query.password);
  return calendarText(scope, options, plan);
}

/** `GET /events/{id}.ics`: one event, with the checks of `GET /events/{id}`. */
export async function eventFileById(
  scope: Scope,
  input: { id: number; password?: string | undefined },
  options: FeedOptions,
): Promise<string> {
  return renderOne(scope, options, await getEvent(scope, input));
}

/** `GET /events/by-slug/{slug}.ics`. */
export async function eventFileBySlug(
  scope: Scope,
  input: { slug: string; password?: string | undefined },
  options: FeedOptions,
): Promise<string> {
  return renderOne(scope, options, await getEventBySlug(scope, input));
}

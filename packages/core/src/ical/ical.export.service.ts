import { getEvent, getEventBySlug } from "../events/event.get.service.ts";
import { listEvents, listSelectionOf } from "../events/event.list.service.ts";
import type { EventOutput } from "../events/event.output.schemas.ts";
import type { EventListQuery } from "../events/event.schemas.ts";
import type { Scope } from "../scope.ts";
import { seriesLimitsOf } from "../series/series.create.ts";
import { readFeedEvents } from "./ical.feed.read.ts";
import { type FeedSeries, feedEntriesOf } from "./ical.feed.series.ts";
import {
  type FeedEntry,
  type FeedEvent,
  type FeedHeader,
  feedEventOf,
  type IcalSource,
  icalSourceOf,
} from "./ical.feed.ts";
import { eventUidHost } from "./ical.identity.ts";

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

/** The feed's VEVENTs: series as one master and their differing occurrences, other events as themselves. */
async function entriesOf(scope: Scope, options: FeedOptions, events: readonly FeedEvent[]) {
  const uidHost = await eventUidHost(scope, options.publicHost);
  const series = await seriesOf(scope, events);
  return feedEntriesOf(events, series, seriesLimitsOf(scope.site), (event) => eventUid(event, uidHost));
}

/** The renderer, loaded at the first feed with its libraries rather than at start. */
const renderer = () => import("./ical.feed.render.ts");

/** The VCALENDAR of the events in chunks of a few VEVENTs (see `calendarChunks`). */
async function renderChunks(
  scope: Scope,
  options: FeedOptions,
  events: readonly FeedEvent[],
): Promise<Iterable<string>> {
  const { entries, span } = await entriesOf(scope, options, events);
  const { calendarChunks } = await renderer();
  return calendarChunks(headerOf(scope, options), entries, span);
}

/**
 * One occurrence alone: its own VEVENT with its series' UID and its RECURRENCE-ID, so that a calendar holding the
 * series replaces that instance; other events as in a feed.
 */
async function renderOne(scope: Scope, options: FeedOptions, output: EventOutput): Promise<string> {
  const event = feedEventOf(output, (await sourcesOf(scope, [output])).get(output.id));
  const occurrence = event.source?.occurrence;
  const series = occurrence ? (await seriesOf(scope, [event])).get(occurrence.seriesId) : undefined;
  if (!occurrence || !series) return [...(await renderChunks(scope, options, [event]))].join("");
  const entry: FeedEntry = {
    event,
    uid: series.uid,
    sequence: event.source?.sequence ?? 0,
    recurrenceId: { local: occurrence.originalStartLocal, timezone: series.timezone, allDay: series.allDay },
  };
  const { renderCalendar } = await renderer();
  return renderCalendar(headerOf(scope, options), [entry]);
}

/**
 * The feed's events through `GET /events` itself: the list's page of presented events. The feed's own statement
 * (`readFeedEvents`) must give the same; a search around a point (ordered with its distances) still reads this way.
 */
export async function listedFeedEvents(scope: Scope, query: EventListQuery, maxEvents: number): Promise<FeedEvent[]> {
  const { events } = await listEvents(scope, { ...query, page: 1, per_page: maxEvents });
  return feedEventsOf(scope, events);
}

/** The feed's events: the first `maxEvents` that the same query on `GET /events` selects, as it shows them. */
export async function selectFeedEvents(scope: Scope, query: EventListQuery, maxEvents: number): Promise<FeedEvent[]> {
  const { distances, filter } = await listSelectionOf(scope, query);
  if (distances) return listedFeedEvents(scope, query, maxEvents);
  return readFeedEvents(scope, filter, maxEvents, query.password);
}

/**
 * `GET /events.ics`: the events the same query on `GET /events` selects (filters, visibility, default window,
 * redaction of protected events), not paged: the first `maxEvents` in the list's order. Its text comes in chunks of a
 * few VEVENTs, made as they are read: a feed never holds its whole text as one string.
 */
export async function eventFeed(scope: Scope, query: EventListQuery, options: FeedOptions): Promise<Iterable<string>> {
  return renderChunks(scope, options, await selectFeedEvents(scope, query, options.maxEvents));
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

import { getEvent, getEventBySlug } from "../events/event.get.service.ts";
import { listEvents, listSelectionOf } from "../events/event.list.service.ts";
import type { EventOutput } from "../events/event.output.schemas.ts";
import type { EventListQuery } from "../events/event.schemas.ts";
import type { Scope } from "../scope.ts";
import { readFeedEvents } from "./ical.feed.read.ts";
import { type FeedEvent, type FeedHeader, feedEventOf, type IcalSource, renderCalendar } from "./ical.feed.ts";

export interface FeedOptions {
  /** The most events a feed holds (`CALENDAR_ICAL_MAX_EVENTS`). */
  maxEvents: number;
  /** The site's name, for `X-WR-CALNAME`. */
  siteName: string;
}

/** Clients poll a subscribed feed this often. */
const REFRESH_SECONDS = 3_600;

async function sourcesOf(scope: Scope, events: readonly EventOutput[]): Promise<Map<number, IcalSource>> {
  if (!events.length) return new Map();
  const rows = await scope.db.event.findMany({
    where: { id: { in: events.map((event) => event.id) } },
    select: { id: true, icalUid: true, icalRecurrenceId: true, sequence: true },
  });
  return new Map(
    rows.map((row) => [row.id, { uid: row.icalUid, recurrenceId: row.icalRecurrenceId, sequence: row.sequence }]),
  );
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

/** The host of the UIDs derived from events: the site's `global_id` host, else the API's. */
function uidHostOf(scope: Scope): string {
  return scope.site.globalIdHost ?? new URL(scope.links.apiRoot).host;
}

function render(scope: Scope, options: FeedOptions, events: readonly FeedEvent[]): string {
  return renderCalendar(headerOf(scope, options), events, uidHostOf(scope));
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
 * redaction of protected events), not paged: the first `maxEvents` in the list's order.
 */
export async function eventFeed(scope: Scope, query: EventListQuery, options: FeedOptions): Promise<string> {
  return render(scope, options, await selectFeedEvents(scope, query, options.maxEvents));
}

/** `GET /events/{id}.ics`: one event, with the checks of `GET /events/{id}`. */
export async function eventFileById(
  scope: Scope,
  input: { id: number; password?: string | undefined },
  options: FeedOptions,
): Promise<string> {
  return render(scope, options, await feedEventsOf(scope, [await getEvent(scope, input)]));
}

/** `GET /events/by-slug/{slug}.ics`. */
export async function eventFileBySlug(
  scope: Scope,
  input: { slug: string; password?: string | undefined },
  options: FeedOptions,
): Promise<string> {
  return render(scope, options, await feedEventsOf(scope, [await getEventBySlug(scope, input)]));
}

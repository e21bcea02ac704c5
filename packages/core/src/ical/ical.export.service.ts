import { listEvents } from "../events/event.list.service.ts";
import type { EventListQuery, EventOutput } from "../events/event.schemas.ts";
import { getEvent, getEventBySlug } from "../events/event.service.ts";
import type { Scope } from "../trpc/context.ts";
import { type FeedHeader, type IcalSource, renderCalendar } from "./ical.feed.ts";

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

async function render(scope: Scope, options: FeedOptions, events: readonly EventOutput[]): Promise<string> {
  return renderCalendar(headerOf(scope, options), events, await sourcesOf(scope, events), uidHostOf(scope));
}

/**
 * `GET /events.ics`: the events the same query on `GET /events` selects (filters, visibility, default window,
 * redaction of protected events), not paged: the first `maxEvents` in the list's order.
 */
export async function eventFeed(scope: Scope, query: EventListQuery, options: FeedOptions): Promise<string> {
  const { events } = await listEvents(scope, { ...query, page: 1, per_page: options.maxEvents });
  return render(scope, options, events);
}

/** `GET /events/{id}.ics`: one event, with the checks of `GET /events/{id}`. */
export async function eventFileById(
  scope: Scope,
  input: { id: number; password?: string | undefined },
  options: FeedOptions,
): Promise<string> {
  return render(scope, options, [await getEvent(scope, input)]);
}

/** `GET /events/by-slug/{slug}.ics`. */
export async function eventFileBySlug(
  scope: Scope,
  input: { slug: string; password?: string | undefined },
  options: FeedOptions,
): Promise<string> {
  return render(scope, options, [await getEventBySlug(scope, input)]);
}

import type { EventOutput } from "../events/event.output.schemas.ts";

/**
 * What an event's iCalendar form needs besides its JSON: the identity kept from an import, its SEQUENCE, and of an
 * occurrence of a series, the series and the start its rule gave it.
 */
export interface IcalSource {
  uid: string | null;
  recurrenceId: string | null;
  sequence: number;
  occurrence: FeedOccurrence | null;
}

/** An occurrence's place in its series. */
export interface FeedOccurrence {
  seriesId: number;
  /** The start its rule gave it, as a wall time in the series' zone. */
  originalStartLocal: string;
  /** Does it override fields of the series (`Event.overrides` not empty)? */
  overrides: boolean;
}

/** The iCalendar identity of an event row. */
export function icalSourceOf(row: {
  icalUid: string | null;
  icalRecurrenceId: string | null;
  sequence: number;
  seriesId: number | null;
  originalStartLocal: string | null;
  overrides: string;
}): IcalSource {
  const occurrence =
    row.seriesId === null || row.originalStartLocal === null
      ? null
      : { seriesId: row.seriesId, originalStartLocal: row.originalStartLocal, overrides: row.overrides !== "[]" };
  return { uid: row.icalUid, recurrenceId: row.icalRecurrenceId, sequence: row.sequence, occurrence };
}

/**
 * One VEVENT: an event (UID as decided by the caller), a series' master (its RRULE/RDATE/EXDATE lines), or an
 * occurrence that differs from its master (its RECURRENCE-ID, a wall time in the series' zone).
 */
export interface FeedEntry {
  event: FeedEvent;
  uid: string;
  sequence: number;
  recurrence?: readonly string[];
  recurrenceId?: { local: string; timezone: string; allDay: boolean };
}

/** The venue fields a feed writes, as the event's JSON shows them (details absent while the venue is protected). */
export interface FeedVenue {
  venue: string;
  address?: string | undefined;
  zip?: string | undefined;
  city?: string | undefined;
  country?: string | undefined;
  geo_lat?: number | undefined;
  geo_lng?: number | undefined;
}

/**
 * What a feed writes of an event: the fields of its JSON (`EventOutput`, as the same caller sees it) that the
 * iCalendar form uses, its first venue and organizer, and its iCalendar identity.
 */
export interface FeedEvent {
  id: number;
  title: string;
  description: string;
  url: string;
  status: string;
  all_day: boolean | null;
  timezone: string;
  /** Wall times: in the event's zone, and in UTC (`YYYY-MM-DD HH:MM:SS`). */
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  date_utc: string;
  modified_utc: string;
  venue: FeedVenue | undefined;
  organizer: { organizer: string; email?: string | undefined } | undefined;
  categories: readonly string[];
  image: { url: string; extension: string } | undefined;
  source: IcalSource | undefined;
}

/** The feed's view of an event's JSON. */
export function feedEventOf(event: EventOutput, source: IcalSource | undefined): FeedEvent {
  const [venue] = Array.isArray(event.venue) ? event.venue : [event.venue];
  return {
    id: event.id,
    title: event.title,
    description: event.description,
    url: event.url,
    status: event.status,
    all_day: event.all_day,
    timezone: event.timezone,
    start_date: event.start_date,
    end_date: event.end_date,
    utc_start_date: event.utc_start_date,
    utc_end_date: event.utc_end_date,
    date_utc: event.date_utc,
    modified_utc: event.modified_utc,
    venue,
    organizer: event.organizer[0],
    categories: event.categories.map((category) => category.name),
    image: event.image ? { url: event.image.url, extension: event.image.extension } : undefined,
    source,
  };
}

/** What the VTIMEZONEs of a feed depend on, of an event written in it. */
export type FeedSchedule = Pick<FeedEvent, "all_day" | "timezone" | "start_date" | "end_date">;

/** A row of the feed before its event is read: its series, if any, and its schedule. */
export interface FeedOutline {
  id: number;
  seriesId: number | null;
  schedule: FeedSchedule;
}

export interface FeedHeader {
  /** `X-WR-CALNAME`. */
  name: string;
  language: string;
  /** The site's zone, for `X-WR-TIMEZONE`. */
  timezone: string;
  /** `REFRESH-INTERVAL` and `X-PUBLISHED-TTL`, in seconds. */
  refreshSeconds: number;
}

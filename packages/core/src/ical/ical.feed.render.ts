import { foldLines, ICalCalendar, ICalCalendarMethod, type ICalEventData, ICalEventStatus } from "ical-generator";
import { DateTime } from "luxon";
import { plainTextInSlices, plainTextOf } from "../shared/plain-text.ts";
import type { FeedEntry, FeedEvent, FeedHeader, FeedSchedule } from "./ical.feed.ts";
import { vtimezoneOf, type ZoneYears } from "./ical.vtimezone.ts";

/*
 * The VCALENDAR text of a feed. Its libraries (ical-generator, htmlparser2) are loaded with it at the first feed
 * (`ical.export.service.ts` imports this module when it renders), not at every start.
 */

const UTC_ZONES = new Set(["UTC", "Etc/UTC", "Etc/GMT", "GMT", "Z"]);

function isUtc(zone: string): boolean {
  return UTC_ZONES.has(zone);
}

/**
 * VTIMEZONE blocks by zone and years: feeds of the same window share them. Bounded by their bytes (keys included),
 * the oldest dropped first.
 */
const vtimezones = new Map<string, string | undefined>();
export const MAX_CACHED_VTIMEZONE_BYTES = 4 * 1024 * 1024;
let cachedVtimezoneBytes = 0;

function sizeOf(key: string, text: string | undefined): number {
  return key.length + (text?.length ?? 0);
}

function cachedVtimezone(zone: string, years: ReadonlySet<number>): string | undefined {
  const key = `${zone} ${[...years].sort((a, b) => a - b).join(",")}`;
  if (vtimezones.has(key)) return vtimezones.get(key);
  const text = vtimezoneOf(zone, years);
  const size = sizeOf(key, text);
  for (const [oldest, kept] of vtimezones) {
    if (cachedVtimezoneBytes + size <= MAX_CACHED_VTIMEZONE_BYTES) break;
    vtimezones.delete(oldest);
    cachedVtimezoneBytes -= sizeOf(oldest, kept);
  }
  if (cachedVtimezoneBytes + size <= MAX_CACHED_VTIMEZONE_BYTES) {
    vtimezones.set(key, text);
    cachedVtimezoneBytes += size;
  }
  return text;
}

function addYear(years: Map<string, Set<number>>, zone: string, year: number): void {
  const known = years.get(zone);
  if (known) known.add(year);
  else years.set(zone, new Set([year]));
}

/**
 * The years of the events' local times, by zone (UTC and all-day events need no VTIMEZONE), with those of the series'
 * occurrences the VEVENTs' rules give.
 */
function zonedYears(schedules: readonly FeedSchedule[], seriesYears: ZoneYears | undefined): ZoneYears {
  const years = new Map<string, Set<number>>();
  for (const [zone, ofZone] of seriesYears ?? []) for (const year of ofZone) addYear(years, zone, year);
  for (const event of schedules) {
    const zone = zoneOf(event);
    if (zone === null) continue;
    addYear(years, zone, Number(event.start_date.slice(0, 4)));
    addYear(years, zone, Number(event.end_date.slice(0, 4)));
  }
  return years;
}

/**
 * `2030-06-01 18:00:00` (UTC) → the instant in the zone the library writes it in: already there, the library's
 * `setZone` is a no-op, where a UTC instant cost a parse, a conversion and a copy per date.
 */
function zonedInstant(wallUtc: string, zone: string | null): DateTime {
  const instant = DateTime.fromMillis(utcDate(wallUtc).getTime(), { zone: zone ?? "utc" });
  return instant.isValid ? instant : DateTime.fromSQL(wallUtc, { zone: "utc" });
}

/** `2030-06-01 18:00:00` (UTC) → the instant, for a time written in UTC (`Z`): a Date costs the library no zone work. */
function utcDate(wallUtc: string): Date {
  return new Date(`${wallUtc.replace(" ", "T")}Z`);
}

/** `20300601T180000Z` → the same instant. */
export function recurrenceInstant(recurrenceId: string): DateTime {
  return DateTime.fromFormat(recurrenceId, "yyyyLLdd'T'HHmmss'Z'", { zone: "utc" });
}

function statusOf(status: string): ICalEventStatus {
  return status === "draft" || status === "pending" ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED;
}

function locationOf(event: FeedEvent): ICalEventData["location"] {
  const { venue } = event;
  if (!venue) return null;
  const address = [venue.address, venue.zip && venue.city ? `${venue.zip} ${venue.city}` : venue.city, venue.country]
    .filter((part): part is string => Boolean(part))
    .join(", ");
  const geo =
    venue.geo_lat !== undefined && venue.geo_lng !== undefined ? { lat: venue.geo_lat, lon: venue.geo_lng } : undefined;
  return { title: venue.venue, ...(address ? { address } : {}), ...(geo ? { geo } : {}) };
}

/** The plain texts of the events' descriptions, made beforehand. */
export type PlainTexts = ReadonlyMap<FeedEvent, string>;

/**
 * The plain texts of the entries' descriptions, awaiting `pause()` between slices of a long one: the writing of a
 * VEVENT itself then holds the event loop only for the library's escaping and folding.
 */
export async function plainTextsOf(entries: readonly FeedEntry[], pause: () => Promise<void>): Promise<PlainTexts> {
  const texts = new Map<FeedEvent, string>();
  for (const { event } of entries) {
    if (event.description) texts.set(event, await plainTextInSlices(event.description, pause));
  }
  return texts;
}

/** The plain text of an HTML description (linear in its length, see `plainTextOf`); the HTML itself goes to `X-ALT-DESC`. */
function descriptionOf(event: FeedEvent, plainTexts: PlainTexts): ICalEventData["description"] {
  if (!event.description) return null;
  const plain = plainTexts.get(event) ?? plainTextOf(event.description);
  return plain === event.description ? plain : { plain, html: event.description };
}

/** The start and end to write: event-local wall times (all-day: dates, end exclusive), or UTC. */
function scheduleOf(event: FeedEvent): Pick<ICalEventData, "start" | "end" | "allDay" | "timezone"> {
  const zone = isUtc(event.timezone) ? null : event.timezone;
  if (event.all_day) {
    const start = DateTime.fromSQL(event.start_date, { zone: "utc" }).startOf("day");
    const end = DateTime.fromSQL(event.end_date, { zone: "utc" }).startOf("day").plus({ days: 1 });
    return { start, end: end > start ? end : start.plus({ days: 1 }), allDay: true, timezone: null };
  }
  return {
    start: zonedInstant(event.utc_start_date, zone),
    end: zonedInstant(event.utc_end_date, zone),
    allDay: false,
    timezone: zone,
  };
}

/** The media types of the image formats the web shows, by file extension. */
const IMAGE_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
};

/**
 * The event's image as `ATTACH;FMTTYPE=…` and RFC 7986 `IMAGE;VALUE=URI` (our patch of ical-generator); an image
 * of an unknown type is only attached (an IMAGE's type would be a guess).
 */
function attachmentsOf(event: FeedEvent): ICalEventData["attachments"] {
  if (!event.image) return [];
  const mime = IMAGE_TYPES[event.image.extension];
  return [mime ? { uri: event.image.url, mime, image: true } : event.image.url];
}

/**
 * The RECURRENCE-ID of an entry: the original start in the series' zone (a floating time for all-day series, made a
 * DATE by `renderCalendar`), or the UTC instant kept by an import.
 */
function recurrenceIdOf(entry: FeedEntry): Pick<ICalEventData, "recurrenceId" | "floating"> {
  const { recurrenceId, event } = entry;
  if (recurrenceId?.allDay) {
    return { recurrenceId: DateTime.fromSQL(recurrenceId.local, { zone: "utc" }), floating: true };
  }
  if (recurrenceId) return { recurrenceId: DateTime.fromSQL(recurrenceId.local, { zone: recurrenceId.timezone }) };
  const imported = event.source?.recurrenceId;
  return imported ? { recurrenceId: recurrenceInstant(imported) } : {};
}

/**
 * The lines as the library writes them. It reads a lone line as an RRULE's parts, so a lone RDATE line is written
 * twice (the recurrence set of RFC 5545 holds each date once).
 */
function repeatingOf(lines: readonly string[] | undefined): ICalEventData["repeating"] {
  const [line, ...others] = lines ?? [];
  if (line === undefined) return null;
  if (others.length === 0 && !line.startsWith("RRULE:")) return `${line}\r\n${line}`;
  return [line, ...others].join("\r\n");
}

function eventData(entry: FeedEntry, now: Date, plainTexts: PlainTexts): ICalEventData {
  const { event } = entry;
  const { organizer } = event;
  return {
    id: entry.uid,
    ...recurrenceIdOf(entry),
    repeating: repeatingOf(entry.recurrence),
    sequence: entry.sequence,
    stamp: now,
    created: utcDate(event.date_utc),
    lastModified: utcDate(event.modified_utc),
    ...scheduleOf(event),
    summary: event.title,
    description: descriptionOf(event, plainTexts),
    location: locationOf(event),
    // ORGANIZER is a mail address (RFC 5545 3.8.4.3): an organizer without one is left out, not an error.
    organizer: organizer?.email ? { name: organizer.organizer, email: organizer.email } : null,
    categories: event.categories.map((name) => ({ name })),
    url: event.url,
    status: statusOf(event.status),
    attachments: attachmentsOf(event),
  };
}

/** The floating RECURRENCE-ID of an all-day occurrence, as the DATE its series' DTSTART is (RFC 5545 3.8.4.4). */
const ALL_DAY_RECURRENCE_ID = /^RECURRENCE-ID:(\d{8})T000000\r$/gm;

/** The zone a VEVENT writes its times in (the library writes a VTIMEZONE for each), or null. */
function zoneOf(event: FeedSchedule): string | null {
  return event.all_day || isUtc(event.timezone) ? null : event.timezone;
}

/**
 * The calendar's text around its VEVENTs, given the schedules of its events in their order: the header with the
 * VTIMEZONEs of their zones, and the footer. The library writes them with its events; a calendar of one placeholder
 * event per zone (then one in UTC, so that there is always one) gives both exactly as it writes them, cut at the
 * first and after the last VEVENT. `seriesYears` adds the years of the occurrences the series' rules give (beyond
 * the occurrences written).
 */
export function calendarFrame(header: FeedHeader, schedules: readonly FeedSchedule[], seriesYears?: ZoneYears) {
  const years = zonedYears(schedules, seriesYears);
  const calendar = new ICalCalendar({
    prodId: { company: "Calendar", product: "Calendar", language: header.language.toUpperCase() },
    method: ICalCalendarMethod.PUBLISH,
    scale: "GREGORIAN",
    name: header.name,
    ttl: header.refreshSeconds,
    timezone: {
      name: null,
      generator: (zone) => {
        const ofZone = years.get(zone);
        return isUtc(zone) || !ofZone ? null : (cachedVtimezone(zone, ofZone) ?? null);
      },
    },
  });
  calendar.x("X-WR-TIMEZONE", header.timezone);
  const zones = new Set(schedules.map(zoneOf));
  zones.delete(null);
  for (const timezone of [...zones, null]) calendar.createEvent({ start: new Date(0), timezone });
  const text = calendar.toString();
  const end = "END:VEVENT\r\n";
  // RFC 5545 ends every content line, the last one too, with CRLF.
  return {
    head: text.slice(0, text.indexOf("BEGIN:VEVENT")),
    foot: `${text.slice(text.lastIndexOf(end) + end.length)}\r\n`,
  };
}

/** The VEVENTs of entries (text escaped by the library), folded at 75 octets as the library folds a calendar. */
export function eventsText(entries: readonly FeedEntry[], now: Date, plainTexts: PlainTexts = new Map()): string {
  const calendar = new ICalCalendar();
  const text = entries.map((entry) => calendar.createEvent(eventData(entry, now, plainTexts)).toString()).join("");
  return foldLines(text).replace(ALL_DAY_RECURRENCE_ID, "RECURRENCE-ID;VALUE=DATE:$1\r");
}

/** A VCALENDAR of the entries as one string (RFC 5545: CRLF, lines folded at 75 octets). */
export function renderCalendar(
  header: FeedHeader,
  entries: readonly FeedEntry[],
  seriesYears?: ZoneYears,
  now: Date = new Date(),
  plainTexts: PlainTexts = new Map(),
): string {
  const { head, foot } = calendarFrame(
    header,
    entries.map((entry) => entry.event),
    seriesYears,
  );
  return `${head}${eventsText(entries, now, plainTexts)}${foot}`;
}

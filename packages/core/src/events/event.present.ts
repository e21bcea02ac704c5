import type { OrganizerOutput } from "../organizers/organizer.schemas.ts";
import { type ScheduledSeries, seriesSchedule } from "../series/series.schedule.ts";
import type { EventSeriesJsonLd } from "../series/series.schemas.ts";
import { EMPTY_COST_DETAILS, presentCost } from "../shared/cost.ts";
import { dateDetails, formatWallTime, isoWithOffset, timezoneAbbreviation } from "../shared/dates.ts";
import { presentImage } from "../shared/images.ts";
import { languageSchema } from "../shared/language.ts";
import { apiLink, globalId, type LinkBase, permalink, type QueryValue } from "../shared/links.ts";
import { byNameThenId } from "../shared/name-order.ts";
import { totalPages } from "../shared/query.ts";
import { stripTags } from "../shared/text.ts";
import type { Translations } from "../shared/translations.ts";
import type { EmbeddedTerm } from "../terms/term.schemas.ts";
import type { VenueOutput } from "../venues/venue.schemas.ts";
import type { ListDateWindow } from "./event.dates.ts";
import { EVENT_LIST_PARAMS, type EventListQuery, LIST_PARAM_NAMES } from "./event.filters.ts";
import type { EventDetailOutput, EventJsonLd, EventListOutput, EventOutput } from "./event.output.schemas.ts";
import type { EventRow } from "./event.rows.ts";

/** The presented records an event links to, for a whole page of events (missing or trashed ones are absent). */
export interface EventRelations {
  venues: ReadonlyMap<number, VenueOutput>;
  organizers: ReadonlyMap<number, OrganizerOutput>;
  categories: ReadonlyMap<number, EmbeddedTerm>;
  tags: ReadonlyMap<number, EmbeddedTerm>;
  translations: ReadonlyMap<number, Translations>;
  /** The lines of each series the events are occurrences of, by series id. */
  series: ReadonlyMap<number, string[]>;
}

function present<T>(ids: readonly number[], byId: ReadonlyMap<number, T>): T[] {
  return ids.flatMap((id) => {
    const item = byId.get(id);
    return item ? [item] : [];
  });
}

/** Terms by name (case-insensitive), then id, as the reference lists an event's terms. */
function byName(terms: EmbeddedTerm[]): EmbeddedTerm[] {
  return terms.sort(byNameThenId);
}

/** One venue is an object, several a list, none `[]` (docs/behaviour.md, "Event shape"). */
function venueField(venues: VenueOutput[]): VenueOutput | VenueOutput[] {
  const [only] = venues;
  return venues.length === 1 && only ? only : venues;
}

function utcWallTime(instant: Date): string {
  return formatWallTime(instant, "UTC");
}

/**
 * An event on the wire (docs/behaviour.md, "Event shape"). `redacted`: a password-protected event in a list, for a requester who
 * neither gave its password nor may edit it; its details are blanked as the reference does.
 */
export function presentEvent(
  row: EventRow,
  related: EventRelations,
  links: LinkBase,
  { redacted }: { redacted: boolean },
): EventOutput {
  const url = permalink(links, "event", row);
  const { cost, cost_details } = presentCost(row.cost);
  return {
    ...eventIdentity(row, links, url, redacted),
    all_day: redacted ? null : row.allDay,
    ...eventDates(row),
    cost: redacted ? "" : cost,
    cost_details: redacted ? EMPTY_COST_DETAILS : cost_details,
    website: redacted ? "" : row.website || url,
    ...eventFlags(row, redacted),
    ...eventLinkedRecords(row, related, redacted),
    post_parent: row.parentId ?? 0,
    ...eventSeriesFields(row, related),
    language: languageSchema.parse(row.language),
    translations: related.translations.get(row.id) ?? {},
  };
}

/** The fields of an event from `id` to `image`, in the order of the wire shape. */
function eventIdentity(row: EventRow, links: LinkBase, url: string, redacted: boolean) {
  const globalIdOfRow = globalId(links, row.id);
  return {
    id: row.id,
    global_id: globalIdOfRow,
    global_id_lineage: [globalIdOfRow],
    author: String(row.authorId ?? 0),
    status: row.status,
    date: row.postDate,
    date_utc: utcWallTime(row.postDateUtc),
    modified: row.modified,
    modified_utc: utcWallTime(row.modifiedUtc),
    url,
    rest_url: apiLink(links, `/events/${row.id}`),
    title: row.title,
    description: redacted ? "" : row.description,
    excerpt: redacted ? "" : row.excerpt,
    slug: row.slug,
    image: redacted ? (false as const) : presentImage(row.image),
  };
}

/** Start and end, local and UTC, with their details and the time zone. */
function eventDates(row: EventRow) {
  const utcStart = utcWallTime(row.startUtc);
  const utcEnd = utcWallTime(row.endUtc);
  return {
    start_date: row.startLocal,
    start_date_details: dateDetails(row.startLocal),
    end_date: row.endLocal,
    end_date_details: dateDetails(row.endLocal),
    utc_start_date: utcStart,
    utc_start_date_details: dateDetails(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: dateDetails(utcEnd),
    timezone: row.timezone,
    timezone_abbr: timezoneAbbreviation(row.startUtc, row.timezone),
  };
}

/** Of an occurrence: its series' lines and id, and the start its rule gave it; null for a single event. */
function eventSeriesFields(row: EventRow, related: EventRelations) {
  return {
    recurrence: row.seriesId === null ? null : (related.series.get(row.seriesId) ?? null),
    original_start_date: row.originalStartLocal,
    original_start_date_utc: row.originalStartUtc && utcWallTime(row.originalStartUtc),
    series_id: row.seriesId,
  };
}

/** The display flags; `null` when redacted. */
function eventFlags(row: EventRow, redacted: boolean) {
  const flag = (value: boolean) => (redacted ? null : value);
  return {
    show_map: flag(row.showMap),
    show_map_link: flag(row.showMapLink),
    hide_from_listings: flag(row.hideFromListings),
    sticky: flag(row.sticky),
    featured: flag(row.featured),
    ticketed: flag(row.ticketed),
  };
}

/** Terms by name, venues and organizers in their positions; none when redacted. */
function eventLinkedRecords(row: EventRow, related: EventRelations, redacted: boolean) {
  if (redacted) return { categories: [], tags: [], venue: [], organizer: [] };
  return {
    categories: byName(
      present(
        row.categories.map((link) => link.categoryId),
        related.categories,
      ),
    ),
    tags: byName(
      present(
        row.tags.map((link) => link.tagId),
        related.tags,
      ),
    ),
    venue: venueField(
      present(
        row.venues.map((link) => link.venueId),
        related.venues,
      ),
    ),
    organizer: present(
      row.organizers.map((link) => link.organizerId),
      related.organizers,
    ),
  };
}

function plainText(html: string): string {
  return stripTags(html).replace(/\s+/g, " ").trim();
}

/** What an occurrence's JSON-LD says of its series: its schedule and its first occurrence, if the reader may see it. */
export interface OccurrenceSeries extends ScheduledSeries {
  first: { slug: string; language: string } | null;
}

/** schema.org `EventSeries` of an occurrence: named as the occurrence, at the first occurrence's page. */
function seriesJsonLd(event: EventOutput, series: OccurrenceSeries, links: LinkBase): EventSeriesJsonLd {
  const eventSchedule = seriesSchedule(series);
  return {
    "@type": "EventSeries",
    name: event.title,
    url: series.first ? permalink(links, "event", series.first) : event.url,
    ...(eventSchedule ? { eventSchedule } : {}),
  };
}

/**
 * schema.org `Event` of one event (docs/behaviour.md, "Event shape"), from its presented form; an occurrence's is
 * part of its `EventSeries` (`superEvent`).
 */
export function eventJsonLd(
  event: EventOutput,
  row: Pick<EventRow, "startUtc" | "endUtc" | "timezone">,
  series: OccurrenceSeries | null,
  links: LinkBase,
): EventJsonLd {
  const venues = Array.isArray(event.venue) ? event.venue : [event.venue];
  const location = venues.flatMap((venue) => (venue.json_ld ? [venue.json_ld] : []))[0];
  const organizers = event.organizer.flatMap((organizer) => (organizer.json_ld ? [organizer.json_ld] : []));
  const [lowestPrice] = event.cost_details.values;
  const description = plainText(event.excerpt) || plainText(event.description);
  return {
    "@context": "http://schema.org",
    "@type": "Event",
    name: event.title,
    ...(description ? { description } : {}),
    ...(event.image ? { image: event.image.url } : {}),
    url: event.url,
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    eventStatus: "https://schema.org/EventScheduled",
    startDate: isoWithOffset(row.startUtc, row.timezone),
    endDate: isoWithOffset(row.endUtc, row.timezone),
    ...(location ? { location } : {}),
    ...(organizers.length ? { organizer: organizers } : {}),
    performer: "Organization",
    ...(lowestPrice === undefined ? {} : { offers: { "@type": "Offer" as const, price: lowestPrice, url: event.url } }),
    ...(series ? { superEvent: seriesJsonLd(event, series, links) } : {}),
  };
}

/** A single GET: the event with its `json_ld`. */
export function presentEventDetail(
  row: EventRow,
  related: EventRelations,
  links: LinkBase,
  series: OccurrenceSeries | null,
): EventDetailOutput {
  const event = presentEvent(row, related, links, { redacted: false });
  return { ...event, json_ld: eventJsonLd(event, row, series, links) };
}

/** The parameters `rest_url` echoes, in the reference's order, each as given or as the date window used it. */
const ECHOED = LIST_PARAM_NAMES.flatMap((name) => {
  const { echo } = EVENT_LIST_PARAMS[name];
  return typeof echo === "object" ? [{ name, ...echo }] : [];
}).sort((a, b) => a.rank - b.rank);

/** The effective query of a list, in the reference's order (dates as used; the password is never echoed). */
function echoedQuery(
  query: EventListQuery,
  dates: Readonly<Partial<Record<string, string>>>,
): Record<string, QueryValue> {
  return Object.fromEntries(ECHOED.map(({ name, as }) => [name, as === "window" ? dates[name] : query[name]]));
}

/**
 * The links and totals of a list (docs/behaviour.md, "Event lists"): `rest_url` echoes the effective query; `next_rest_url` only
 * when a next page exists; `previous_rest_url` from page 2 on, without `page` when it points to page 1.
 */
export function eventListLinks(
  links: LinkBase,
  query: EventListQuery,
  dates: ListDateWindow["echo"],
  total: number,
  path: `/${string}/` = "/events/",
): Omit<EventListOutput, "events"> {
  const echoed = echoedQuery(query, dates);
  const pageLink = (page: number | undefined) => apiLink(links, path, { page, ...echoed });
  const pages = totalPages(total, query.per_page);
  return {
    rest_url: pageLink(query.page),
    ...(query.page < pages ? { next_rest_url: pageLink(query.page + 1) } : {}),
    ...(query.page > 1 ? { previous_rest_url: pageLink(query.page > 2 ? query.page - 1 : undefined) } : {}),
    total,
    total_pages: pages,
  };
}

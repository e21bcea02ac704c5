import { z } from "zod";
import { forceQuery, passwordQuery, websiteUrl } from "../linked-posts/linked-post.schemas.ts";
import { organizerCreateBody } from "../organizers/organizer.schemas.ts";
import { isDateValue, isValidTimeZone } from "../shared/dates.ts";
import { imageRef } from "../shared/images.ts";
import { mlLanguage } from "../shared/language.ts";
import { statusFilter, writableStatus } from "../shared/post-status.ts";
import {
  idList,
  listItems,
  nonEmptyString,
  page,
  pathId,
  perPage,
  positiveId,
  termRefList,
  wpBoolean,
} from "../shared/query.ts";
import { venueCreateBody } from "../venues/venue.schemas.ts";

const MAX_LINKS = 50;
export const DEFAULT_GEOLOC_RADIUS_KM = 25;

/** A date value: `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD`, ISO 8601, a Unix timestamp or natural language. */
export const dateValue = z.preprocess(
  (value: string | number) => (typeof value === "number" ? String(value) : value),
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine(isDateValue, "Not a date: use YYYY-MM-DD HH:MM:SS, ISO 8601, a Unix timestamp or words like tomorrow 9am."),
);
export type DateValue = z.infer<typeof dateValue>;

/**
 * Text kept exactly as written, which must not be blank (the reference rejects an empty description). Only the body
 * limit bounds its length, as WordPress's post content.
 */
const nonBlankText = z.string().refine((text) => text.trim() !== "", "Must not be empty.");

/** An IANA time zone, or `""` for the site's. */
const timezoneValue = z
  .string()
  .trim()
  .max(64)
  .refine((zone) => zone === "" || isValidTimeZone(zone), "Must be an IANA time zone such as Europe/Rome.");

const costValue = z
  .union([z.string().max(1_000), z.number(), z.array(z.union([z.string().max(200), z.number()])).max(MAX_LINKS)])
  .meta({ description: 'Cost: a string ("20$", "€6.50 - €8.50") or a list of costs ("0$", "20$").' });

/** Is this value one of the ways a write says "none" (`0`, `""`, null; `[]` needs no mapping)? */
function isEmptyLink(value: unknown): boolean {
  return value === null || value === 0 || value === "0" || value === "";
}

/**
 * `categories`/`tags` on write: ids and names, CSV or list, at most `MAX_LINKS` of them; `0`, `""`, `[]` or null
 * remove every term.
 */
const termLinks = z.preprocess(
  (value: Array<number | string> | number | string | null) => (isEmptyLink(value) ? [] : value),
  termRefList.refine((refs) => refs.length <= MAX_LINKS, `At most ${MAX_LINKS} terms.`),
);

/** `{ "id": X }`: links an existing venue or organizer (X must be one, else `invalid-linked-post-id`). */
export const linkedIdRef = z.object({ id: positiveId });
export type LinkedIdRef = z.infer<typeof linkedIdRef>;

/**
 * `venue`/`organizer` on write: an id, `{id}`, an inline object, or a list of them (CSV ids too); `0`, `""`,
 * `[]` or null unlink.
 */
function linkedPostLinks<T extends z.ZodType>(inline: T) {
  type Link = number | string | z.input<typeof linkedIdRef> | z.input<T>;
  return z.preprocess(
    (value: Link | Link[] | null) => (isEmptyLink(value) ? [] : listItems(value)),
    z.array(z.union([positiveId, linkedIdRef, inline])).max(MAX_LINKS),
  );
}

/** `post_parent`: the id of an existing event; `0`, `""` or null removes the parent. */
const parentRef = z.preprocess(
  (value: number | string | null) => {
    if (isEmptyLink(value)) return 0;
    return typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  },
  z
    .number()
    .int()
    .nonnegative()
    .max(2 ** 31 - 1),
);

/** The write fields of an event; on create `title`, `start_date` and `end_date` are required. */
const eventWriteShape = {
  title: nonEmptyString.max(1_000).meta({ description: "Title." }),
  start_date: dateValue.meta({ description: "Start, read in the event's time zone (else the site's)." }),
  end_date: dateValue.meta({ description: "End, read in the event's time zone (else the site's)." }),
  description: nonBlankText.optional().meta({ description: "Description (HTML allowed), kept as written." }),
  excerpt: nonBlankText.optional().meta({ description: "Excerpt, kept as written." }),
  slug: nonEmptyString.max(190).optional().meta({ description: "URL name (made from the title when absent)." }),
  author: positiveId.optional().meta({ description: "Id of the author (an existing user)." }),
  date: dateValue.optional().meta({ description: "Publication date, in the event's time zone." }),
  date_utc: dateValue.optional().meta({ description: "Publication date in UTC." }),
  status: writableStatus.optional(),
  timezone: timezoneValue.optional().meta({ description: "IANA time zone of the event; empty for the site's." }),
  all_day: wpBoolean.optional().meta({ description: "Lasts whole days: start at 00:00:00, end at 23:59:59." }),
  image: imageRef.optional(),
  cost: costValue.optional(),
  website: websiteUrl.optional(),
  show_map: wpBoolean.optional().meta({ description: "Show a map (default true)." }),
  show_map_link: wpBoolean.optional().meta({ description: "Show a map link (default true)." }),
  hide_from_listings: wpBoolean.optional().meta({ description: "Leave out of GET /events (default false)." }),
  sticky: wpBoolean.optional().meta({ description: "Pin in the calendar view (default false)." }),
  featured: wpBoolean.optional().meta({ description: "Feature on the site (default false)." }),
  ticketed: wpBoolean.optional().meta({ description: "Has tickets (default false)." }),
  categories: termLinks
    .optional()
    .meta({ description: `Category ids or names, at most ${MAX_LINKS} (editors' unknown names are created).` }),
  tags: termLinks
    .optional()
    .meta({ description: `Tag ids or names, at most ${MAX_LINKS} (editors' unknown names are created).` }),
  venue: linkedPostLinks(venueCreateBody)
    .optional()
    .meta({ description: "Venue id, {id}, venue fields (creates one), or a list; 0/empty unlinks." }),
  organizer: linkedPostLinks(organizerCreateBody)
    .optional()
    .meta({ description: "Organizer ids (list or CSV), {id}, organizer fields (creates one); 0/empty unlinks." }),
  password: z.string().max(255).optional().meta({ description: "Password protecting the details; empty removes it." }),
  post_parent: parentRef.optional().meta({ description: "Id of the parent event (series); 0 removes it." }),
  translation_of: positiveId
    .optional()
    .meta({ description: "Id of an event this one translates (joins its translation group)." }),
};

export const eventCreateBody = z.object({ ...eventWriteShape, ml_language: mlLanguage });
export type EventCreateBody = z.infer<typeof eventCreateBody>;

const eventUpdateShape = z.object(eventWriteShape).partial().shape;
export type EventWriteFields = z.infer<z.ZodObject<typeof eventUpdateShape>>;

export const eventUpdateInput = z.object({
  id: pathId,
  ...eventUpdateShape,
  ml_language: mlLanguage,
});
export type EventUpdateInput = z.infer<typeof eventUpdateInput>;

const slugPath = z.string().min(1).max(400).meta({ description: "The event's slug (in the request's language)." });

/** By slug, the path names the event; a `slug` in the body cannot rename it (the path parameter wins). */
export const eventUpdateBySlugInput = z.object({
  ...eventUpdateShape,
  slug: slugPath,
  ml_language: mlLanguage,
});
export type EventUpdateBySlugInput = z.infer<typeof eventUpdateBySlugInput>;

export const eventGetInput = z.object({ id: pathId, password: passwordQuery, ml_language: mlLanguage });
export type EventGetInput = z.infer<typeof eventGetInput>;

export const eventGetBySlugInput = z.object({ slug: slugPath, password: passwordQuery, ml_language: mlLanguage });
export type EventGetBySlugInput = z.infer<typeof eventGetBySlugInput>;

export const eventDeleteInput = z.object({
  id: pathId,
  force: forceQuery,
  password: passwordQuery,
  ml_language: mlLanguage,
});
export type EventDeleteInput = z.infer<typeof eventDeleteInput>;

export const eventDeleteBySlugInput = z.object({
  slug: slugPath,
  force: forceQuery,
  password: passwordQuery,
  ml_language: mlLanguage,
});
export type EventDeleteBySlugInput = z.infer<typeof eventDeleteBySlugInput>;

/** A number (or numeric string) within bounds, for the geo filters. */
function boundedNumber(min: number, max: number) {
  return z.preprocess(
    (value: number | string) =>
      typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value,
    z.number().min(min).max(max),
  );
}

/** The date filters of the list. */
export type ListDateParam = "start_date" | "end_date" | "starts_before" | "starts_after" | "ends_before" | "ends_after";

const listDate = (description: string) => dateValue.optional().meta({ description });

/** A list filter sent empty (`categories=`) is invalid, as in the reference, rather than matching nothing. */
function nonEmptyList<T extends z.ZodType<unknown[]>>(list: T) {
  return list.refine((items) => items.length > 0, "Must not be empty.");
}

export const eventListQuery = z
  .object({
    page,
    per_page: perPage,
    start_date: listDate("Events starting on or after this (default: yesterday 00:00, site time zone)."),
    end_date: listDate("Events ending on or before this (default: 24 months ahead, end of day)."),
    starts_before: listDate("Events starting before this (drops the default window)."),
    starts_after: listDate("Events starting after this (drops the default window)."),
    ends_before: listDate("Events ending before this (drops the default window)."),
    ends_after: listDate("Events ending after this (drops the default window)."),
    strict_dates: wpBoolean
      .optional()
      .meta({ description: "true: use the given times as they are; otherwise whole days are included." }),
    search: nonEmptyString
      .max(200)
      .optional()
      .meta({ description: "Words that must all appear in the title, excerpt or description." }),
    categories: nonEmptyList(termRefList).optional().meta({ description: "Category ids or slugs (any of them)." }),
    tags: nonEmptyList(termRefList).optional().meta({ description: "Tag ids or slugs (any of them)." }),
    venue: nonEmptyList(idList).optional().meta({ description: "Venue ids (any of them)." }),
    organizer: nonEmptyList(idList).optional().meta({ description: "Organizer ids (any of them)." }),
    featured: wpBoolean.optional().meta({ description: "Only featured (true) or only other (false) events." }),
    status: statusFilter.optional(),
    geoloc: wpBoolean
      .optional()
      .meta({ description: "true: only events whose venue has coordinates; false: only the others." }),
    geoloc_lat: boundedNumber(-90, 90).optional().meta({ description: "Latitude of the centre (with geoloc_lng)." }),
    geoloc_lng: boundedNumber(-180, 180).optional().meta({ description: "Longitude of the centre (with geoloc_lat)." }),
    geoloc_radius: boundedNumber(0, 20_100)
      .optional()
      .meta({ description: `Radius around the centre in km (default ${DEFAULT_GEOLOC_RADIUS_KM}).` }),
    include: nonEmptyList(idList)
      .optional()
      .meta({ description: "Only these event ids; no date window; by post date." }),
    post_parent: positiveId.optional().meta({ description: "Only children of this event." }),
    ticketed: wpBoolean.optional().meta({ description: "Only events with (true) or without (false) tickets." }),
    password: passwordQuery,
    ml_language: mlLanguage,
  })
  .superRefine((query, context) => {
    const hasLat = query.geoloc_lat !== undefined;
    const hasLng = query.geoloc_lng !== undefined;
    if (hasLat === hasLng) return;
    const [given, missing] = hasLat ? ["geoloc_lat", "geoloc_lng"] : ["geoloc_lng", "geoloc_lat"];
    context.addIssue({ code: "custom", path: [missing], message: `Required together with ${given}.` });
  });
export type EventListQuery = z.infer<typeof eventListQuery>;

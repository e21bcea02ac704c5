import { z } from "zod";
import { forceQuery, passwordQuery, websiteUrl } from "../linked-posts/linked-post.schemas.ts";
import { organizerCreateBody } from "../organizers/organizer.schemas.ts";
import { recurrenceInput } from "../series/series.schemas.ts";
import { isValidTimeZone } from "../shared/dates.ts";
import { imageRef } from "../shared/images.ts";
import { mlLanguage } from "../shared/language.ts";
import { writableStatus } from "../shared/post-status.ts";
import { listItems, nonEmptyString, pathId, positiveId, termRefListOf, wpBoolean } from "../shared/query.ts";
import { venueCreateBody } from "../venues/venue.schemas.ts";
import { dateValue } from "./event.date-value.ts";

export { type DateValue, dateValue } from "./event.date-value.ts";

const MAX_LINKS = 50;

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
  termRefListOf(MAX_LINKS, "terms"),
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
  recurrence: recurrenceInput.optional(),
};

export const eventCreateBody = z.object({ ...eventWriteShape, ml_language: mlLanguage });
export type EventCreateBody = z.infer<typeof eventCreateBody>;

const eventUpdateShape = z.object(eventWriteShape).partial().shape;
export type EventWriteFields = z.infer<z.ZodObject<typeof eventUpdateShape>>;

/** Which occurrences of a series a write or delete addresses (docs/behaviour.md, "Editing and deleting occurrences"). */
export const recurrenceScope = z.enum(["this", "following", "all"]).optional().meta({
  description:
    "For an occurrence of a series: this (default) changes only this occurrence, following this one and the later ones (the series splits here), all every occurrence. A single event ignores it.",
});
export type RecurrenceScope = NonNullable<z.infer<typeof recurrenceScope>>;

export const eventUpdateInput = z.object({
  id: pathId,
  ...eventUpdateShape,
  recurrence_scope: recurrenceScope,
  ml_language: mlLanguage,
});
export type EventUpdateInput = z.infer<typeof eventUpdateInput>;

const slugPath = z.string().min(1).max(400).meta({ description: "The event's slug (in the request's language)." });

/** By slug, the path names the event; a `slug` in the body cannot rename it (the path parameter wins). */
export const eventUpdateBySlugInput = z.object({
  ...eventUpdateShape,
  recurrence_scope: recurrenceScope,
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
  recurrence_scope: recurrenceScope,
  password: passwordQuery,
  ml_language: mlLanguage,
});
export type EventDeleteInput = z.infer<typeof eventDeleteInput>;

export const eventDeleteBySlugInput = z.object({
  slug: slugPath,
  force: forceQuery,
  recurrence_scope: recurrenceScope,
  password: passwordQuery,
  ml_language: mlLanguage,
});
export type EventDeleteBySlugInput = z.infer<typeof eventDeleteBySlugInput>;

// The list query is built from its parameters' table (event.filters.ts), where each filter is declared once.
export {
  DEFAULT_GEOLOC_RADIUS_KM,
  type EventListQuery,
  eventListQuery,
  type ListDateParam,
} from "./event.filters.ts";

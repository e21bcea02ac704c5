import { z } from "zod";
import { jsonLdHeadShape, listEnvelope } from "../linked-posts/linked-post.schemas.ts";
import { organizerJsonLd, organizerOutput } from "../organizers/organizer.schemas.ts";
import { eventSeriesJsonLd, recurrenceOutput } from "../series/series.schemas.ts";
import { imageOutput } from "../shared/images.ts";
import { languageSchema } from "../shared/language.ts";
import { postStampsShape } from "../shared/post.schemas.ts";
import { embeddedTermOutput } from "../terms/term.schemas.ts";
import { venueJsonLd, venueOutput } from "../venues/venue.schemas.ts";

/** What the event operations answer: an event, its JSON-LD, a page of them. */

const dateDetails = z.object({
  year: z.string(),
  month: z.string(),
  day: z.string(),
  hour: z.string(),
  minutes: z.string(),
  seconds: z.string(),
});

export const costDetailsOutput = z.object({
  currency_symbol: z.string(),
  currency_code: z.string(),
  currency_position: z.enum(["prefix", "postfix", ""]),
  values: z.array(z.string()),
});

/**
 * An event on the wire (docs/behaviour.md, "Event shape"). The flags are null, and the details empty, in a list entry of a
 * password-protected event that the requester may not see.
 */
export const eventOutput = z
  .object({
    id: z.number().int(),
    global_id: z.string(),
    global_id_lineage: z.array(z.string()),
    author: z.string(),
    ...postStampsShape,
    rest_url: z.string(),
    title: z.string(),
    description: z.string(),
    excerpt: z.string(),
    slug: z.string(),
    image: z.union([z.literal(false), imageOutput]),
    all_day: z.boolean().nullable(),
    start_date: z.string(),
    start_date_details: dateDetails,
    end_date: z.string(),
    end_date_details: dateDetails,
    utc_start_date: z.string(),
    utc_start_date_details: dateDetails,
    utc_end_date: z.string(),
    utc_end_date_details: dateDetails,
    timezone: z.string(),
    timezone_abbr: z.string(),
    cost: z.string(),
    cost_details: costDetailsOutput,
    website: z.string(),
    show_map: z.boolean().nullable(),
    show_map_link: z.boolean().nullable(),
    hide_from_listings: z.boolean().nullable(),
    sticky: z.boolean().nullable(),
    featured: z.boolean().nullable(),
    ticketed: z.boolean().nullable(),
    categories: z.array(embeddedTermOutput),
    tags: z.array(embeddedTermOutput),
    venue: z.union([venueOutput, z.array(venueOutput)]),
    organizer: z.array(organizerOutput),
    post_parent: z.number().int(),
    recurrence: recurrenceOutput.meta({ description: "Of an occurrence: its series' RRULE, RDATE and EXDATE lines." }),
    original_start_date: z.string().nullable().meta({
      description: "Of an occurrence: the start its rule gave it (its RECURRENCE-ID), kept when it is moved.",
    }),
    original_start_date_utc: z.string().nullable(),
    series_id: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Of an occurrence: its series (GET /events/{id}/occurrences)." }),
    language: languageSchema,
    translations: z.partialRecord(languageSchema, z.number().int()),
  })
  .meta({ id: "Event" });
export type EventOutput = z.infer<typeof eventOutput>;

/** schema.org `Event` of a single GET. */
export const eventJsonLd = z.object({
  ...jsonLdHeadShape("Event"),
  eventAttendanceMode: z.string(),
  eventStatus: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  location: venueJsonLd.optional(),
  organizer: z.array(organizerJsonLd).optional(),
  performer: z.literal("Organization"),
  offers: z
    .object({ "@type": z.literal("Offer"), price: z.string(), priceCurrency: z.string().optional(), url: z.string() })
    .optional(),
  superEvent: eventSeriesJsonLd.optional().meta({ description: "Of an occurrence: its series and the schedule." }),
});
export type EventJsonLd = z.infer<typeof eventJsonLd>;

/** A single GET (by id or slug) adds `json_ld`. */
export const eventDetailOutput = eventOutput.extend({ json_ld: eventJsonLd }).meta({ id: "EventDetail" });
export type EventDetailOutput = z.infer<typeof eventDetailOutput>;

export const eventListOutput = listEnvelope("events", eventOutput);
export type EventListOutput = z.infer<typeof eventListOutput>;

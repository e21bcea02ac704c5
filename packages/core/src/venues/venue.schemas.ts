import { z } from "zod";
import {
  clearableText,
  jsonLdHeadShape,
  latitude,
  linkedPostBodyShape,
  linkedPostHeadShape,
  linkedPostTailShape,
  linkedPostWriteShape,
  listEnvelope,
  longitude,
  MAX_NAME,
} from "../linked-posts/linked-post.schemas.ts";
import { nonEmptyString, wpBoolean } from "../shared/query.ts";

/** The write fields of a venue (`POST /venues`, and an inline venue inside an event write). */
export const venueCreateBody = z.object({
  venue: nonEmptyString.max(MAX_NAME).meta({ description: "Name of the venue." }),
  ...linkedPostWriteShape,
  show_map: wpBoolean.optional().meta({ description: "Show a map (default true)." }),
  show_map_link: wpBoolean.optional().meta({ description: "Show a link to a map (default true)." }),
  address: clearableText().optional().meta({ description: "Street address." }),
  city: clearableText().optional().meta({ description: "City." }),
  country: clearableText().optional().meta({ description: "Country." }),
  province: clearableText().optional().meta({ description: "Province (outside the United States)." }),
  state: clearableText().optional().meta({ description: "State (in the United States)." }),
  zip: clearableText().optional().meta({ description: "Postal code." }),
  stateprovince: clearableText().optional().meta({ description: "State or province (free text)." }),
  geo_lat: latitude.optional(),
  geo_lng: longitude.optional(),
});
export type VenueCreateBody = z.infer<typeof venueCreateBody>;

/** Updates change only the fields sent; `venue`, when sent, must still be non-empty. */
export const venueUpdateBody = venueCreateBody.partial();
export type VenueUpdateBody = z.infer<typeof venueUpdateBody>;

const postalAddress = z.object({
  "@type": z.literal("PostalAddress"),
  streetAddress: z.string().optional(),
  addressLocality: z.string().optional(),
  addressRegion: z.string().optional(),
  postalCode: z.string().optional(),
  addressCountry: z.string().optional(),
});

/** schema.org `Place` of a venue (single GET only). */
export const venueJsonLd = z.object({
  ...jsonLdHeadShape("Place"),
  address: postalAddress.optional(),
  geo: z.object({ "@type": z.literal("GeoCoordinates"), latitude: z.number(), longitude: z.number() }).optional(),
  telephone: z.string().optional(),
  sameAs: z.string().optional(),
});
export type VenueJsonLd = z.infer<typeof venueJsonLd>;

/** A venue on the wire: empty optional fields are absent (docs/behaviour.md, "Venue shape"). */
export const venueOutput = z
  .object({
    ...linkedPostHeadShape,
    venue: z.string(),
    ...linkedPostBodyShape,
    address: z.string().optional(),
    city: z.string().optional(),
    country: z.string().optional(),
    province: z.string().optional(),
    state: z.string().optional(),
    zip: z.string().optional(),
    phone: z.string().optional(),
    website: z.string().optional(),
    stateprovince: z.string().optional(),
    geo_lat: z.number().optional(),
    geo_lng: z.number().optional(),
    json_ld: venueJsonLd.optional(),
    show_map: z.boolean(),
    show_map_link: z.boolean(),
    ...linkedPostTailShape,
  })
  .meta({ id: "Venue" });
export type VenueOutput = z.infer<typeof venueOutput>;

export const venueListOutput = listEnvelope("venues", venueOutput);
export type VenueListOutput = z.infer<typeof venueListOutput>;

import { z } from "zod";
import {
  clearableText,
  jsonLdHeadShape,
  linkedPostBodyShape,
  linkedPostHeadShape,
  linkedPostTailShape,
  linkedPostWriteShape,
  listEnvelope,
  MAX_NAME,
} from "../linked-posts/linked-post.schemas.ts";
import { nonEmptyString } from "../shared/query.ts";

/** The write fields of an organizer (`POST /organizers`, and an inline organizer inside an event write). */
export const organizerCreateBody = z.object({
  organizer: nonEmptyString.max(MAX_NAME).meta({ description: "Name of the organizer." }),
  ...linkedPostWriteShape,
  email: clearableText()
    .optional()
    .meta({ description: "Email address, kept as written (not validated, like the reference)." }),
});
export type OrganizerCreateBody = z.infer<typeof organizerCreateBody>;

/** Updates change only the fields sent; `organizer`, when sent, must still be non-empty. */
export const organizerUpdateBody = organizerCreateBody.partial();
export type OrganizerUpdateBody = z.infer<typeof organizerUpdateBody>;

/** schema.org `Organization` of an organizer (single GET only). */
export const organizerJsonLd = z.object({
  ...jsonLdHeadShape("Organization"),
  telephone: z.string().optional(),
  email: z.string().optional(),
  sameAs: z.string().optional(),
});
export type OrganizerJsonLd = z.infer<typeof organizerJsonLd>;

/** An organizer on the wire: empty optional fields are absent (docs/behaviour.md, "Organizer shape"). */
export const organizerOutput = z
  .object({
    ...linkedPostHeadShape,
    organizer: z.string(),
    ...linkedPostBodyShape,
    phone: z.string().optional(),
    website: z.string().optional(),
    email: z.string().optional(),
    json_ld: organizerJsonLd.optional(),
    ...linkedPostTailShape,
  })
  .meta({ id: "Organizer" });
export type OrganizerOutput = z.infer<typeof organizerOutput>;

export const organizerListOutput = listEnvelope("organizers", organizerOutput);
export type OrganizerListOutput = z.infer<typeof organizerListOutput>;

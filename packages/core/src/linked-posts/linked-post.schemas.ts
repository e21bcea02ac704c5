import { z } from "zod";
import { imageOutput, imageRef, isHttpUrl } from "../shared/images.ts";
import { languageSchema } from "../shared/language.ts";
import { postStampsShape } from "../shared/post.schemas.ts";
import { writableStatus } from "../shared/post-status.ts";
import { nonEmptyString, positiveId, wpBoolean } from "../shared/query.ts";

/** Venues and organizers ("linked posts" in the reference): the schemas both resources share. */

const MAX_LINE = 1_000;
export const MAX_NAME = 500;

/** Optional text that a write may clear: `""` or null removes it. Kept as written (no trimming). */
export function clearableText(max = MAX_LINE) {
  return z.preprocess((value: string | null) => value ?? "", z.string().max(max));
}

/** Long text (HTML allowed), `""`/null to clear it; bounded by the body limit only, as WordPress's post content. */
const clearableLongText = z.preprocess((value: string | null) => value ?? "", z.string());

/** A website: an http(s) URL, or `""`/null to remove it. */
export const websiteUrl = z
  .preprocess(
    (value: string | null) => value ?? "",
    z
      .string()
      .trim()
      .max(2_048)
      .refine((value) => value === "" || isHttpUrl(value), "Must be an http(s) URL or empty."),
  )
  .meta({ description: "Website: an http(s) URL, or empty to remove it." });

/** A date value as the API accepts it (read by `parseDateTime`): a string or a Unix timestamp. */
const dateValue = z.preprocess(
  (value: string | number) => (typeof value === "number" ? String(value) : value),
  nonEmptyString.max(100),
);

/** A coordinate: a number (or numeric string) within ±`limit`; `""` or null removes it. */
function coordinate(limit: number) {
  return z.preprocess((value: number | string | null) => {
    if (value === null || value === "") return null;
    const number = typeof value === "string" ? Number(value.trim()) : value;
    return Number.isNaN(number) ? value : number;
  }, z.number().min(-limit).max(limit).nullable());
}

export const latitude = coordinate(90).meta({ description: "Latitude in degrees (-90 to 90); empty to remove." });
export const longitude = coordinate(180).meta({ description: "Longitude in degrees (-180 to 180); empty to remove." });

/** The write fields every linked post has besides its name (all optional). */
export const linkedPostWriteShape = {
  author: positiveId.optional().meta({ description: "Id of the author (an existing user)." }),
  date: dateValue.optional().meta({ description: "Publication date, in the site time zone." }),
  date_utc: dateValue.optional().meta({ description: "Publication date in UTC." }),
  description: clearableLongText.optional().meta({ description: "Description (HTML allowed)." }),
  excerpt: clearableLongText.optional().meta({ description: "Short description." }),
  status: writableStatus.optional(),
  image: imageRef.optional(),
  slug: nonEmptyString.max(190).optional().meta({ description: "URL name (made from the name when absent)." }),
  password: clearableText(255).optional().meta({ description: "Password protecting the details; empty removes it." }),
  translation_of: positiveId
    .optional()
    .meta({ description: "Id of a record of the same kind this one translates (joins its translation group)." }),
  website: websiteUrl.optional(),
  phone: clearableText().optional().meta({ description: "Phone number." }),
};

export const linkedPostWriteFields = z.object(linkedPostWriteShape);
export type LinkedPostWriteFields = z.infer<typeof linkedPostWriteFields>;

/** The list query is built from its parameter table (`linked-post.filters.ts`); the routers take it from here. */
export { type LinkedPostListQuery, linkedPostListQuery } from "./linked-post.filters.ts";

export const passwordQuery = z
  .string()
  .max(255)
  .optional()
  .meta({ description: "The password of a protected record, to see its details." });

export const forceQuery = wpBoolean
  .optional()
  .meta({ description: "true: delete permanently instead of moving to the trash (administrators only)." });

/** Output fields every linked post has, before its name. */
export const linkedPostHeadShape = {
  id: z.number().int(),
  author: z.string().optional(),
  ...postStampsShape,
};

/** Output fields every linked post has, right after its name. */
export const linkedPostBodyShape = {
  description: z.string().optional(),
  excerpt: z.string().optional(),
  slug: z.string(),
  image: imageOutput.optional(),
};

/** Output fields every linked post ends with. */
export const linkedPostTailShape = {
  global_id: z.string(),
  global_id_lineage: z.array(z.string()),
  language: languageSchema,
  translations: z.partialRecord(languageSchema, z.number().int()),
};

/** The schema.org fields both JSON-LD shapes start with. */
export function jsonLdHeadShape<T extends string>(type: T) {
  return {
    "@context": z.literal("http://schema.org"),
    "@type": z.literal(type),
    name: z.string(),
    description: z.string().optional(),
    image: z.string().optional(),
    url: z.string(),
  };
}

/** The list envelope: `{ <plural>: [...], rest_url, next_rest_url?, previous_rest_url?, total, total_pages }`. */
export function listEnvelope<K extends string, T extends z.ZodType>(key: K, item: T) {
  const items = { [key]: z.array(item) } as Record<K, z.ZodArray<T>>;
  return z.object({
    ...items,
    rest_url: z.string(),
    next_rest_url: z.string().optional(),
    previous_rest_url: z.string().optional(),
    total: z.number().int(),
    total_pages: z.number().int(),
  });
}

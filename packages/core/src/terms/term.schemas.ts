import { z } from "zod";
import { listQueryOf } from "../linked-posts/list-filter.ts";
import { languageSchema, mlLanguage } from "../shared/language.ts";
import { nonEmptyString, pathId, positiveId } from "../shared/query.ts";
import { MAX_TERM_NAME, TERM_PARAMETERS } from "./term.filters.ts";

/** Categories and tags (docs/behaviour.md, "Categories and tags"): the schemas both resources share. */

export type Taxonomy = "category" | "tag";

/** The WordPress taxonomy name of each kind of term. */
export const TAXONOMY_NAMES = { category: "tribe_events_cat", tag: "post_tag" } as const;
export type TaxonomyName = (typeof TAXONOMY_NAMES)[Taxonomy];

export const termUrls = z.object({
  self: z.string(),
  collection: z.string(),
  up: z.string().optional().meta({ description: "The parent category, when there is one." }),
});
export type TermUrls = z.infer<typeof termUrls>;

/** A term as embedded in an event (docs/behaviour.md, "Term shapes"). */
export const embeddedTermOutput = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    term_group: z.literal(0),
    term_taxonomy_id: z.number().int(),
    taxonomy: z.enum([TAXONOMY_NAMES.category, TAXONOMY_NAMES.tag]),
    description: z.string(),
    parent: z.number().int(),
    count: z.number().int(),
    filter: z.literal("raw"),
    urls: termUrls,
    language: languageSchema,
  })
  .meta({ id: "EventTerm" });
export type EmbeddedTerm = z.infer<typeof embeddedTermOutput>;

/**
 * A category from `/categories` (docs/behaviour.md, "Term shapes") plus its language and translations; tags drop `parent`.
 * `count` is the number of published events of the term in its language.
 */
export const termOutput = z.object({
  id: z.number().int(),
  count: z.number().int(),
  description: z.string(),
  name: z.string(),
  slug: z.string(),
  taxonomy: z.enum([TAXONOMY_NAMES.category, TAXONOMY_NAMES.tag]),
  parent: z.number().int().meta({ description: "Id of the parent category, 0 for none." }),
  meta: z.array(z.never()).meta({ description: "Always empty (no term meta is registered)." }),
  url: z.string().meta({ description: "The term's archive page." }),
  urls: termUrls,
  language: languageSchema,
  translations: z.partialRecord(languageSchema, z.number().int()),
});
export type TermOutput = z.infer<typeof termOutput>;

/** `{ [key]: value }` typed by its literal key (TypeScript widens computed keys to `string`). */
export function keyed<K extends string, V>(key: K, value: V): Record<K, V> {
  return { [key]: value } as Record<K, V>;
}

/** `{ <key>: [...], rest_url, total, total_pages, next_rest_url?, previous_rest_url? }` (docs/behaviour.md, "Categories and tags"). */
export function termListEnvelope<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({
    ...keyed(key, z.array(item)),
    rest_url: z.string().meta({ description: "The collection, without the query." }),
    total: z.number().int(),
    total_pages: z.number().int(),
    next_rest_url: z.string().optional(),
    previous_rest_url: z.string().optional(),
  });
}

/** `GET /categories` (tags: without `parent`), built from its parameter table. */
export const termListQuery = listQueryOf(TERM_PARAMETERS);
export type TermListQuery = z.infer<typeof termListQuery>;

/** Text that, when sent, must not be blank; kept as written, bounded by the body limit only. */
const nonBlankText = z.string().refine((text) => text.trim() !== "", "Must not be empty.");

/** The write fields of a category (tags: without `parent`). */
export const termCreateBody = z.object({
  name: nonEmptyString.max(MAX_TERM_NAME).meta({ description: "Name (unique in the language, per parent)." }),
  description: nonBlankText.optional().meta({ description: "Description (HTML allowed)." }),
  slug: nonEmptyString
    .max(MAX_TERM_NAME)
    .optional()
    .meta({ description: "URL name (made from the name when absent)." }),
  parent: pathId.optional().meta({ description: "Id of the parent category, 0 for none." }),
  translation_of: positiveId
    .optional()
    .meta({ description: "Id of a term of the same kind this one translates (joins its translation group)." }),
  ml_language: mlLanguage,
});
export type TermCreateBody = z.infer<typeof termCreateBody>;

export const termUpdateBody = termCreateBody.partial().extend({ id: pathId });
export type TermUpdateBody = z.infer<typeof termUpdateBody>;

export const termItemQuery = z.object({ id: pathId, ml_language: mlLanguage });
export type TermItemQuery = z.infer<typeof termItemQuery>;

/** The schemas of one kind of term, with the list envelope under `key`. */
export function termSchemaSet<K extends string, I extends z.ZodType, S extends { item: I }>(
  key: K,
  schemas: S & { item: I },
) {
  return { ...schemas, list: termListEnvelope(key, schemas.item) };
}

import { echoedQuery } from "../linked-posts/list-filter.ts";
import { languageSchema } from "../shared/language.ts";
import { apiLink, type LinkBase, permalink } from "../shared/links.ts";
import type { Translations } from "../shared/translations.ts";
import { TERM_PARAMETERS } from "./term.filters.ts";
import {
  type EmbeddedTerm,
  keyed,
  TAXONOMY_NAMES,
  type Taxonomy,
  type TermListQuery,
  type TermOutput,
  type TermUrls,
} from "./term.schemas.ts";
import type { TermRow } from "./term.store.ts";

/** What a term's presentation needs besides its row. */
export interface TermFacts {
  count: number;
  translations: Translations;
}

export const COLLECTION_PATHS = { category: "/categories", tag: "/tags" } as const satisfies Record<Taxonomy, string>;

export function termUrlsOf(links: LinkBase, taxonomy: Taxonomy, row: Pick<TermRow, "id" | "parentId">): TermUrls {
  const collection = COLLECTION_PATHS[taxonomy];
  return {
    self: apiLink(links, `${collection}/${row.id}`),
    collection: apiLink(links, collection),
    ...(row.parentId ? { up: apiLink(links, `${collection}/${row.parentId}`) } : {}),
  };
}

/** A presented term whose `taxonomy` is the name of kind `T`. */
export type TermOf<T extends Taxonomy> = Omit<TermOutput, "taxonomy"> & { taxonomy: (typeof TAXONOMY_NAMES)[T] };

/** A term of `/categories` or `/tags` (docs/behaviour.md, "Term shapes"), with `parent`; tags leave it out. */
export function presentTerm<T extends Taxonomy>(
  taxonomy: T,
  row: TermRow,
  facts: TermFacts,
  links: LinkBase,
): TermOf<T> {
  return {
    id: row.id,
    count: facts.count,
    description: row.description,
    name: row.name,
    slug: row.slug,
    taxonomy: TAXONOMY_NAMES[taxonomy],
    parent: row.parentId ?? 0,
    meta: [],
    url: permalink(links, taxonomy, row),
    urls: termUrlsOf(links, taxonomy, row),
    language: languageSchema.parse(row.language),
    translations: facts.translations,
  };
}

/** A term as embedded in an event (docs/behaviour.md, "Term shapes"). */
export function presentEmbeddedTerm(taxonomy: Taxonomy, row: TermRow, count: number, links: LinkBase): EmbeddedTerm {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    term_group: 0,
    term_taxonomy_id: row.id,
    taxonomy: TAXONOMY_NAMES[taxonomy],
    description: row.description,
    parent: row.parentId ?? 0,
    count,
    filter: "raw",
    urls: termUrlsOf(links, taxonomy, row),
    language: languageSchema.parse(row.language),
  };
}

/** The links of a list page (docs/behaviour.md, "Categories and tags"): `rest_url` is the bare collection; next and previous keep the query. */
export interface TermPageLinks {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
}

/** The page fields of a list response. */
export interface TermListPage extends TermPageLinks {
  total: number;
  total_pages: number;
}

export function termPageLinks(
  links: LinkBase,
  taxonomy: Taxonomy,
  query: TermListQuery,
  totalPages: number,
): TermPageLinks {
  const base = `${COLLECTION_PATHS[taxonomy]}/`;
  const at = (page: number) => apiLink(links, base, echoedQuery(TERM_PARAMETERS, { ...query, page }));
  return {
    rest_url: apiLink(links, base),
    ...(query.page < totalPages ? { next_rest_url: at(query.page + 1) } : {}),
    ...(query.page > 1 ? { previous_rest_url: at(query.page - 1) } : {}),
  };
}

/** A list response: the terms under their collection's key, then the page fields in the order of the list schema. */
export function presentTermList<K extends string, TTerm>(
  key: K,
  { items, ...page }: { items: TTerm[] } & TermListPage,
): Record<K, TTerm[]> & TermListPage {
  const { total, total_pages, rest_url, ...pageLinks } = page;
  return { ...keyed(key, items), rest_url, total, total_pages, ...pageLinks };
}

import { formatWallTime } from "../shared/dates.ts";
import { presentImage } from "../shared/images.ts";
import { languageSchema } from "../shared/language.ts";
import { apiLink, globalId, type LinkBase, permalink } from "../shared/links.ts";
import type { PresentView } from "../shared/present-view.ts";
import { stripTags } from "../shared/text.ts";
import { LINKED_POST_PARAMETERS, type LinkedPostListQuery } from "./linked-post.filters.ts";
import type { LinkedPostRow } from "./linked-post.kind.ts";
import { echoedQuery } from "./list-filter.ts";

type Empty = "" | null | undefined | false;

/** The fields that have a value: venues and organizers leave empty fields out (docs/behaviour.md, "Venue shape"). */
export function nonEmptyFields<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], Empty> } {
  const kept = Object.entries(fields).filter(([, value]) => value !== "" && value != null && value !== false);
  return Object.fromEntries(kept) as { [K in keyof T]?: Exclude<T[K], Empty> };
}

/** The fields before the name: id, author, status, dates and the public page. */
function presentLinkedPostHead(row: LinkedPostRow<unknown>, kind: "venue" | "organizer", view: PresentView) {
  return {
    id: row.id,
    ...nonEmptyFields({ author: row.authorId === null ? null : String(row.authorId) }),
    status: row.status,
    date: row.postDate,
    date_utc: formatWallTime(row.postDateUtc, "UTC"),
    modified: row.modified,
    modified_utc: formatWallTime(row.modifiedUtc, "UTC"),
    url: permalink(view.links, kind, row),
  };
}

/** The fields after the name: description, excerpt, slug and image (hidden while redacted). */
function presentLinkedPostBody(row: LinkedPostRow<unknown>, view: PresentView) {
  const shown = !view.redacted;
  return {
    ...nonEmptyFields({ description: shown && row.description, excerpt: shown && row.excerpt }),
    slug: row.slug,
    ...nonEmptyFields({ image: shown && presentImage(row.image) }),
  };
}

/** The closing fields: global ids, language and translations. */
function presentLinkedPostTail(row: LinkedPostRow<unknown>, view: PresentView) {
  const id = globalId(view.links, row.id);
  return {
    global_id: id,
    global_id_lineage: [id],
    language: languageSchema.parse(row.language),
    translations: view.translations,
  };
}

/** The parts of a record only its kind knows. */
export interface KindParts<Details extends object, JsonLd, Trailing extends object> {
  /** The kind's own fields (hidden while redacted). */
  details: Details;
  jsonLd: () => JsonLd;
  /** Fields after the JSON-LD that are shown even while redacted (the venue map flags). */
  trailing: Trailing;
}

/** A record on the wire, in the key order of docs/behaviour.md, "Venue shape" and "Organizer shape", the name under the kind's own key. */
export function presentLinkedPost<
  Kind extends "venue" | "organizer",
  Details extends object,
  JsonLd,
  Trailing extends object,
>(row: LinkedPostRow<unknown>, view: PresentView, kind: Kind, parts: KindParts<Details, JsonLd, Trailing>) {
  return {
    ...presentLinkedPostHead(row, kind, view),
    ...({ [kind]: row.name } as Record<Kind, string>),
    ...presentLinkedPostBody(row, view),
    ...(view.redacted ? {} : parts.details),
    ...(view.jsonLd ? { json_ld: parts.jsonLd() } : {}),
    ...parts.trailing,
    ...presentLinkedPostTail(row, view),
  };
}

/** The schema.org fields both JSON-LD shapes start with (only the name and page while redacted). */
export function presentJsonLdHead<T extends string>(
  type: T,
  kind: "venue" | "organizer",
  row: LinkedPostRow<unknown>,
  view: PresentView,
) {
  const shown = !view.redacted;
  return {
    "@context": "http://schema.org" as const,
    "@type": type,
    name: row.name,
    ...nonEmptyFields({
      description: shown && stripTags(row.description).replace(/\s+/g, " ").trim(),
      image: shown && row.image?.url,
    }),
    url: permalink(view.links, kind, row),
  };
}

/** `rest_url` and the neighbour pages of a list, echoing the parameters of the query (`LINKED_POST_PARAMETERS`). */
export function listLinks(links: LinkBase, plural: string, query: LinkedPostListQuery, pages: number) {
  const at = (page: number) => apiLink(links, `/${plural}/`, echoedQuery(LINKED_POST_PARAMETERS, { ...query, page }));
  return {
    rest_url: at(query.page),
    ...(query.page < pages ? { next_rest_url: at(query.page + 1) } : {}),
    ...(query.page > 1 ? { previous_rest_url: at(query.page - 1) } : {}),
  };
}

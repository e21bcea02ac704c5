import { DEFAULT_LANGUAGE, type Language } from "./language.ts";

/**
 * Where generated links point: the request's own API root (scheme, host and language prefix, e.g.
 * `https://example.org/de/cal/events/v1`) plus the explicit `ml_language` of the request, which links keep.
 */
export interface LinkBase {
  apiRoot: string;
  languageParam?: Language | undefined;
  /** The public site permalinks point to, when it is not this server (`CALENDAR_SITE_URL`). */
  siteUrl?: string | undefined;
}

export type QueryValue = string | number | boolean | ReadonlyArray<string | number> | undefined;

function formatQueryValue(value: Exclude<QueryValue, undefined>): string {
  if (typeof value === "boolean") return value ? "1" : "0";
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}

/** `<apiRoot><path>?<query>`; undefined values are left out, arrays become comma lists, booleans 1/0. */
export function apiLink(base: LinkBase, path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, formatQueryValue(value));
  }
  if (base.languageParam !== undefined) params.set("ml_language", base.languageParam);
  const search = params.toString();
  return `${base.apiRoot}${path}${search ? `?${search}` : ""}`;
}

/** The API roots the server answers under (`/cal/events/v1`, and WordPress's path that the plugin's clients use). */
const API_SUFFIX = /\/(?:[a-z-]+\/)?(?:cal\/events\/v1|wp-json\/tribe\/events\/v1)$/;

/** The site root of a request (its API root without the language prefix and the API's path). */
export function siteOrigin(base: LinkBase): string {
  return base.apiRoot.replace(API_SUFFIX, "");
}

/**
 * The public page of a record in its own language, as multilingual WordPress sites build permalinks from the home
 * URL: `<site>/event/<slug>/` in the default language, `<site>/de/event/<slug>/` in another, whichever prefix the
 * request had (the slug is unique within its language only). `<site>` is the configured public site, or else this
 * server, which serves the event pages under each language prefix.
 */
export function permalink(
  base: LinkBase,
  kind: "event" | "venue" | "organizer" | "category" | "tag",
  record: { slug: string; language: string },
) {
  const prefix = record.language === DEFAULT_LANGUAGE ? "" : `/${record.language}`;
  return `${base.siteUrl ?? siteOrigin(base)}${prefix}/${kind}/${slugPathSegment(record.slug)}/`;
}

/** A slug as a path segment: its percent-encoded octets kept as WordPress stores them, anything else unsafe encoded. */
function slugPathSegment(slug: string): string {
  return slug.replace(/[^A-Za-z0-9%_.~-]/gu, (character) => encodeURIComponent(character));
}

/** The reference's `global_id`: `<host[/path]>?id=<id>`. */
export function globalId(base: LinkBase, id: number): string {
  return `${siteOrigin(base).replace(/^https?:\/\//, "")}?id=${id}`;
}

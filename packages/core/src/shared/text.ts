/**
 * The normalized form of text for search and duplicate checks: Unicode-folded (NFKD without combining marks),
 * lower-cased, whitespace collapsed. Stored in `searchText`/`nameKey` columns on every save and applied to search
 * terms the same way, so matching is case- and accent-insensitive on SQLite and PostgreSQL alike.
 */
export function normalizeText(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Searchable text of several fields, one normalized field per line. */
export function searchTextOf(fields: ReadonlyArray<string | null | undefined>): string {
  return fields
    .map((field) => normalizeText(field ?? ""))
    .filter((field) => field !== "")
    .join("\n");
}

/** HTML tags removed, for searching descriptions by their words rather than their markup. */
export function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, " ");
}

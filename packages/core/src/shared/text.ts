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

/**
 * Every tag (`<` up to the next `>`) replaced by `replacement`; a `<` with no `>` after it stays as text. The same
 * result as `html.replace(/<[^>]*>/g, replacement)` in one pass: that regular expression rescans the rest of the
 * text from every `<` that is never closed, quadratic on a run of `<`.
 */
export function replaceTags(html: string, replacement: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let open = html.indexOf("<"); open !== -1; open = html.indexOf("<", from)) {
    const close = html.indexOf(">", open + 1);
    if (close === -1) break;
    parts.push(html.slice(from, open), replacement);
    from = close + 1;
  }
  parts.push(html.slice(from));
  return parts.join("");
}

/** HTML tags removed, for searching descriptions by their words rather than their markup. */
export function stripTags(html: string): string {
  return replaceTags(html, " ");
}

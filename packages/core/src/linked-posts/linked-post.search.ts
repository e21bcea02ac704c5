import { normalizeText, stripTags } from "../shared/text.ts";
import type { LinkedPostColumns, LinkedPostWhere, TextColumn } from "./linked-post.kind.ts";

/**
 * Search over venues and organizers (docs/behaviour.md, "Venues and organizers"): the term is split into fragments, and a record matches when
 * some single searchable field contains every fragment, case- and accent-insensitively.
 *
 * `searchText` keeps one normalized field per line, each line opened by a marker naming its position
 * (`\u001f<index>\u001f`), and ends with the marker after the last field. "Field k contains fragment f" is then
 * the LIKE pattern `<marker k>%f%<marker k+1>`: the markers occur once each, so the `%` on either side of f cannot
 * leave line k. Prisma hands `contains` values to LIKE without escaping `%`/`_` on SQLite and PostgreSQL alike
 * (the service tests would fail otherwise); fragments never contain `%`, `_` or `\`, since they are made of
 * letters, digits and hyphens only.
 */

const MARK = "\u001f";
const MAX_FRAGMENTS = 10;

/** Searched in every linked post, before the kind's own columns. */
const COMMON_SEARCH_COLUMNS = ["name", "description", "excerpt"] as const;

function marker(index: number): string {
  return `${MARK}${index}${MARK}`;
}

/** Markup is not searched, and control characters (the marker among them) never reach the stored text. */
function searchLine(text: string): string {
  return normalizeText(stripTags(text).replace(/\p{Cc}/gu, " "));
}

/** How many fields a kind searches. */
export function searchFieldCount(ownColumns: readonly unknown[]): number {
  return COMMON_SEARCH_COLUMNS.length + ownColumns.length;
}

/** The `searchText` of a record: its searched columns, one marked line each. */
export function linkedPostSearchText<T extends LinkedPostColumns>(
  record: T,
  ownColumns: ReadonlyArray<TextColumn<T>>,
): string {
  const fields: string[] = [
    ...COMMON_SEARCH_COLUMNS.map((column) => record[column]),
    ...ownColumns.map((column) => String(record[column])),
  ];
  return [...fields.map((field, index) => `${marker(index)}${searchLine(field)}`), marker(fields.length)].join("\n");
}

/** The distinct fragments of a search term: split on anything but letters, digits and hyphens. */
export function searchFragments(search: string): string[] {
  const words = normalizeText(search)
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((word) => word !== "");
  return [...new Set(words)].slice(0, MAX_FRAGMENTS);
}

/** Some single field of those at `positions` contains every fragment; no fragment at all matches nothing. */
function someFieldWhere(fragments: readonly string[], positions: readonly number[]): LinkedPostWhere {
  if (fragments.length === 0) return { id: { in: [] } };
  return {
    OR: positions.map((index) => ({
      AND: fragments.map((fragment) => ({
        searchText: { contains: `${marker(index)}%${fragment}%${marker(index + 1)}` },
      })),
    })),
  };
}

/** Some single field (of `fieldCount`) contains every fragment. */
export function fieldSearchWhere(fragments: readonly string[], fieldCount: number): LinkedPostWhere {
  return someFieldWhere(
    fragments,
    Array.from({ length: fieldCount }, (_, index) => index),
  );
}

/** The name (the first field) contains every fragment: all that a search may match of a record whose details are hidden. */
export function nameSearchWhere(fragments: readonly string[]): LinkedPostWhere {
  return someFieldWhere(fragments, [0]);
}

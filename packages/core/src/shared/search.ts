import { normalizeText, searchTextOf } from "./text.ts";

/**
 * Prisma's `contains` becomes `LIKE '%…%'` without escaping `%` and `_`, and SQLite's LIKE has no default escape
 * character, so escaping cannot work on both databases. Instead the three special characters are mapped to
 * private-use code points, in the stored search column and in the search words alike: `contains` then matches
 * them literally everywhere.
 */
const LIKE_SPECIAL: Readonly<Record<string, string>> = { "%": "\uE025", _: "\uE05F", "\\": "\uE05C" };

function likeSafe(text: string): string {
  return text.replace(/[%_\\]/g, (character) => LIKE_SPECIAL[character] ?? character);
}

/** Control characters become spaces, so that a caller may use one as a separator in stored search text. */
function withoutControls(text: string): string {
  return text.replace(/\p{Cc}/gu, " ");
}

/** The value of a search column: one normalized field per line, to be matched with `searchWords`. */
export function likeSafeSearchText(fields: ReadonlyArray<string | null | undefined>): string {
  return likeSafe(searchTextOf(fields.map((field) => withoutControls(field ?? ""))));
}

/** The words of a `search` parameter, normalized like `likeSafeSearchText`; each must be contained. */
export function searchWords(search: string): string[] {
  return likeSafe(normalizeText(withoutControls(search)))
    .split(" ")
    .filter((word) => word !== "");
}

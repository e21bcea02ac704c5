import type { DetailsAccess } from "../auth/visibility.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import { likeSafeSearchText } from "../shared/search.ts";
import { stripTags } from "../shared/text.ts";

/**
 * Searching events (docs/behaviour.md, "Event lists"): every word must occur in the title, excerpt or description. A
 * password-protected event must not be found through the words its password protects, so unless the actor may
 * edit it, only its title is searched.
 *
 * `searchText` is the normalized title, then `TITLE_END`, then the excerpt and description. The normalized fields
 * never contain control characters, so `TITLE_END` occurs once and "the title contains w" is the LIKE pattern
 * `%w%<TITLE_END>%` (Prisma passes the `%` of a `contains` value to LIKE as a wildcard).
 */
export const TITLE_END = "\u001e";

export function eventSearchText(fields: { title: string; excerpt: string; description: string }): string {
  const body = likeSafeSearchText([fields.excerpt, stripTags(fields.description)]);
  return `${likeSafeSearchText([fields.title])}${TITLE_END}${body}`;
}

/** One search word: anywhere in unprotected (or accessible) events, in the title of the other protected ones. */
export function searchWordWhere(word: string, access: DetailsAccess): Prisma.EventWhereInput {
  const anywhere = { searchText: { contains: word } };
  if (access === "all") return anywhere;
  return {
    OR: [
      { password: "", ...anywhere },
      { password: { not: "" }, searchText: { contains: `${word}%${TITLE_END}` } },
      ...(access === "none" ? [] : [{ AND: [access, anywhere] }]),
    ],
  };
}

import { can } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
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

/** Whose protected text a search may match: every event's, only titles, or also that of these events. */
export type ProtectedTextAccess = "all" | "title" | Prisma.EventWhereInput;

/** The events whose protected text the actor may search: those it may edit (as `canEdit` decides). */
export function protectedTextAccess(actor: Actor): ProtectedTextAccess {
  if (can(actor, "edit_others_posts")) return "all";
  if (actor.kind !== "user" || !can(actor, "create_posts")) return "title";
  if (can(actor, "edit_published_posts")) return { authorId: actor.id };
  return { authorId: actor.id, status: { notIn: ["publish", "future", "private"] } };
}

/**
 * The events whose protected details (venue, organizer, terms, flags) filters on them may match: a filter must not
 * reveal what a password hides any more than a search may. Undefined when the actor may see every event's.
 */
export function protectedDetailsWhere(access: ProtectedTextAccess): Prisma.EventWhereInput | undefined {
  if (access === "all") return undefined;
  return { OR: [{ password: "" }, ...(access === "title" ? [] : [access])] };
}

/** One search word: anywhere in unprotected (or accessible) events, in the title of the other protected ones. */
export function searchWordWhere(word: string, access: ProtectedTextAccess): Prisma.EventWhereInput {
  const anywhere = { searchText: { contains: word } };
  if (access === "all") return anywhere;
  return {
    OR: [
      { password: "", ...anywhere },
      { password: { not: "" }, searchText: { contains: `${word}%${TITLE_END}` } },
      ...(access === "title" ? [] : [{ AND: [access, anywhere] }]),
    ],
  };
}

import { canEdit, type OwnedPost } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import { domainError } from "../errors.ts";
import { LANGUAGES, type Language } from "./language.ts";

/** A record's place in its translation group. */
export interface Translatable {
  id: number;
  language: string;
  translationGroup: string | null;
}

/**
 * Joining a record's translation group (`translation_of`) takes one of its languages, so it needs the right to edit
 * that record (docs/behaviour.md, "Languages and translations"): `rest_forbidden` naming `translation_of` otherwise.
 */
export function requireTranslationRights(actor: Actor, original: OwnedPost, noun: string): void {
  if (canEdit(actor, original)) return;
  throw domainError(
    "rest_forbidden",
    { anonymous: actor.kind === "anonymous" },
    { params: { translation_of: `Adding a translation needs the right to edit the ${noun} translated.` } },
  );
}

/** `{ <language>: <id> }` of the other members of each record's group (docs/behaviour.md, "Languages and translations"). */
export type Translations = Partial<Record<Language, number>>;

const languageOrder = (language: string) => LANGUAGES.indexOf(language as Language);

/**
 * Batches the translation lookup of a page of records: one query for all groups (`findGroupMembers`), then the
 * map per record, leaving the record itself out.
 */
export async function translationsOf<T extends Translatable>(
  records: readonly T[],
  findGroupMembers: (groups: string[]) => Promise<Translatable[]>,
): Promise<Map<number, Translations>> {
  const groups = [...new Set(records.flatMap((record) => (record.translationGroup ? [record.translationGroup] : [])))];
  const members = groups.length ? await findGroupMembers(groups) : [];
  const byGroup = new Map<string, Translatable[]>();
  for (const member of members) {
    if (member.translationGroup)
      byGroup.set(member.translationGroup, [...(byGroup.get(member.translationGroup) ?? []), member]);
  }
  return new Map(
    records.map((record) => {
      const others = (record.translationGroup ? byGroup.get(record.translationGroup) : undefined) ?? [];
      // In the order of LANGUAGES, as the output schema's record of languages has its keys.
      const entries = others
        .filter((member) => member.id !== record.id)
        .sort((a, b) => languageOrder(a.language) - languageOrder(b.language))
        .map((member) => [member.language, member.id]);
      return [record.id, Object.fromEntries(entries) as Translations];
    }),
  );
}

/**
 * For records linked from a record in `language` (an event's categories, tags, venues, organizers): the id of each
 * record's group member in that language when there is one, else its own id. `findMembersIn` returns the members
 * in `language` of the given groups (one query for all of them).
 */
export async function idsInLanguage(
  records: readonly Translatable[],
  language: string,
  findMembersIn: (groups: string[]) => Promise<Translatable[]>,
): Promise<Map<number, number>> {
  const groups = [
    ...new Set(
      records.flatMap((record) =>
        record.language !== language && record.translationGroup ? [record.translationGroup] : [],
      ),
    ),
  ];
  const members = groups.length ? await findMembersIn(groups) : [];
  const memberOfGroup = new Map(members.map((member) => [member.translationGroup, member.id]));
  return new Map(
    records.map((record) => {
      const member = record.language === language ? undefined : memberOfGroup.get(record.translationGroup);
      return [record.id, member ?? record.id];
    }),
  );
}

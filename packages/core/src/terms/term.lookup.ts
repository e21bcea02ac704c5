import type { Tx } from "../db/db.ts";
import { invalidParam } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { slugify, uniqueSlug } from "../shared/slug.ts";
import { idsInLanguage } from "../shared/translations.ts";
import { presentEmbeddedTerm } from "./term.present.ts";
import type { EmbeddedTerm, Taxonomy } from "./term.schemas.ts";
import { type Client, slugTaken, type TermStore, termStore } from "./term.store.ts";
import { nameKeyOf } from "./term.where.ts";

/** The terms that events embed, filter by and link: looked up by id or by name, a fixed number of queries per batch. */

/** Embedded terms (docs/behaviour.md, "Term shapes") of a batch of ids, by id; unknown ids are absent. A fixed number of queries. */
export async function loadTermsById(
  db: Client,
  scope: Scope,
  taxonomy: Taxonomy,
  ids: readonly number[],
): Promise<Map<number, EmbeddedTerm>> {
  if (!ids.length) return new Map();
  const store = termStore(db, taxonomy);
  const rows = await store.find({ id: { in: [...new Set(ids)] } });
  return new Map(rows.map((row) => [row.id, presentEmbeddedTerm(taxonomy, row, row.eventCount, scope.links)]));
}

/** The ids of named terms in `language`, creating the missing ones (first spelling wins). */
async function idsOfNames(store: TermStore, names: readonly string[], language: string): Promise<Map<string, number>> {
  const keys = [...new Set(names.map(nameKeyOf))];
  if (!keys.length) return new Map();
  const existing = await store.find({ language, nameKey: { in: keys } }, { orderBy: [{ id: "asc" }] });
  const idOfKey = new Map<string, number>();
  for (const row of existing) if (!idOfKey.has(row.nameKey)) idOfKey.set(row.nameKey, row.id);
  for (const name of names) {
    const nameKey = nameKeyOf(name);
    if (idOfKey.has(nameKey)) continue;
    const slug = await uniqueSlug(slugify(name), slugTaken(store, language));
    const created = await store.create({
      name,
      nameKey,
      slug,
      description: "",
      parentId: null,
      language,
      translationGroup: null,
    });
    idOfKey.set(nameKey, created.id);
  }
  return idOfKey;
}

/**
 * The term ids an event write links (`categories`/`tags`), in the scope's language (the event's): a number is an
 * existing term id (unknown ones are skipped, as the reference does; one of another language becomes its group's
 * member in the event's language when there is one); a string is a name, matched case-insensitively in that
 * language or created in the caller's transaction (no `manage_categories` needed: the event write's own checks
 * apply). Duplicates are removed, the order is kept. A concurrent creation of the same term surfaces as a unique
 * violation (P2002) for the caller's transaction to retry.
 */
export async function resolveTermIdsForWrite(
  tx: Tx,
  scope: Scope,
  taxonomy: Taxonomy,
  refs: ReadonlyArray<number | string>,
): Promise<number[]> {
  const [ids = []] = await resolveTermIdListsForWrite(tx, scope, taxonomy, [refs]);
  return ids;
}

/** `resolveTermIdsForWrite` of many writes (undefined: the field was not sent), with one lookup of each kind. */
export async function resolveTermIdListsForWrite(
  tx: Tx,
  scope: Scope,
  taxonomy: Taxonomy,
  lists: ReadonlyArray<ReadonlyArray<number | string> | undefined>,
): Promise<Array<number[] | undefined>> {
  const refs = lists.flatMap((list) => list ?? []);
  const store = termStore(tx, taxonomy);
  const ids = refs.filter((ref): ref is number => typeof ref === "number");
  const names = refs.filter((ref): ref is string => typeof ref === "string");
  const rows = ids.length ? await store.find({ id: { in: [...new Set(ids)] } }) : [];
  const idFor = await idsInLanguage(rows, scope.language, (groups) =>
    store.find({ translationGroup: { in: groups }, language: scope.language }),
  );
  const idOfName = await idsOfNames(store, names, scope.language);
  return lists.map((list) => {
    if (!list) return undefined;
    const resolved = list.flatMap((ref) => {
      const id = typeof ref === "number" ? idFor.get(ref) : idOfName.get(nameKeyOf(ref));
      return id === undefined ? [] : [id];
    });
    return [...new Set(resolved)];
  });
}

/**
 * The term ids of an event list filter (`categories`/`tags`): each reference is a slug in the scope's language
 * first, then an id of the taxonomy. Any unknown reference is a 400 naming `param`.
 */
export async function findTermIdsForFilter(
  db: Client,
  scope: Scope,
  taxonomy: Taxonomy,
  refs: ReadonlyArray<number | string>,
  param: string,
): Promise<number[]> {
  const store = termStore(db, taxonomy);
  const slugOf = (ref: number | string) => slugify(String(ref));
  const bySlug = await store.find({ language: scope.language, slug: { in: refs.map(slugOf) } });
  const idOfSlug = new Map(bySlug.map((row) => [row.slug, row.id]));
  const numbers = refs.filter((ref): ref is number => typeof ref === "number" && !idOfSlug.has(slugOf(ref)));
  const byId = new Set(numbers.length ? (await store.find({ id: { in: numbers } })).map((row) => row.id) : []);
  const resolved = refs.map(
    (ref) => idOfSlug.get(slugOf(ref)) ?? (typeof ref === "number" && byId.has(ref) ? ref : undefined),
  );
  const unknown = refs.filter((_ref, index) => resolved[index] === undefined);
  if (unknown.length) throw invalidParam(param, `Unknown term(s): ${unknown.join(", ")}.`);
  return [...new Set(resolved.filter((id): id is number => id !== undefined))];
}

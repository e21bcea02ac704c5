import { can } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import type { Tx } from "../db/db.ts";
import { type DomainError, invalidParam } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { slugify, uniqueSlug } from "../shared/slug.ts";
import { idsInLanguage } from "../shared/translations.ts";
import { readFilterTerms } from "./term.filter-read.ts";
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

/** The parameter of an event write that names terms of each taxonomy. */
const WRITE_PARAMS: Record<Taxonomy, "categories" | "tags"> = { category: "categories", tag: "tags" };

/** How many unknown names a refusal lists: the batch of a bulk write may name thousands. */
const LISTED_NAMES = 10;

/** 400 naming the event write's parameter and (the first few of) the term names it may not create. */
function unknownTermNames(taxonomy: Taxonomy, names: readonly string[]): DomainError {
  const more = names.length > LISTED_NAMES ? ` and ${names.length - LISTED_NAMES} more` : "";
  return invalidParam(
    WRITE_PARAMS[taxonomy],
    `Unknown name(s): ${names.slice(0, LISTED_NAMES).join(", ")}${more}. Only editors create terms by name; use existing ones or ask an editor.`,
  );
}

/**
 * The ids of named terms in `language` (first spelling wins). The missing ones are created when the actor may
 * manage terms; for anyone else they are a 400 naming the parameter (docs/behaviour.md, "Creating events").
 */
async function idsOfNames(
  store: TermStore,
  actor: Actor,
  names: readonly string[],
  language: string,
): Promise<Map<string, number>> {
  const keys = [...new Set(names.map(nameKeyOf))];
  if (!keys.length) return new Map();
  const existing = await store.find({ language, nameKey: { in: keys } }, { orderBy: [{ id: "asc" }] });
  const idOfKey = new Map<string, number>();
  for (const row of existing) if (!idOfKey.has(row.nameKey)) idOfKey.set(row.nameKey, row.id);
  const missing = new Map<string, string>();
  for (const name of names) {
    const nameKey = nameKeyOf(name);
    if (!idOfKey.has(nameKey) && !missing.has(nameKey)) missing.set(nameKey, name);
  }
  if (missing.size && !can(actor, "manage_categories")) throw unknownTermNames(store.taxonomy, [...missing.values()]);
  for (const [nameKey, name] of missing) {
    const slug = await uniqueSlug(slugify(name, language), slugTaken(store, language));
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
 * language, else created in the caller's transaction if the actor has `manage_categories` (unlike the plugin:
 * WordPress's REST API needs the right to manage terms to create one), else a 400. Duplicates are removed, the
 * order is kept. A concurrent creation of the same term surfaces as a unique violation (P2002) for the caller's
 * transaction to retry.
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
  const idOfName = await idsOfNames(store, scope.actor, names, scope.language);
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
  scope: Scope,
  taxonomy: Taxonomy,
  refs: ReadonlyArray<number | string>,
  param: string,
): Promise<number[]> {
  const slugOf = (ref: number | string) => slugify(String(ref), scope.language);
  const found = await readFilterTerms(scope, taxonomy, {
    slugs: refs.map(slugOf),
    ids: refs.filter((ref): ref is number => typeof ref === "number"),
  });
  const idOfSlug = new Map(found.filter((row) => row.bySlug).map((row) => [row.slug, row.id]));
  const byId = new Set(found.map((row) => row.id));
  const resolved = refs.map(
    (ref) => idOfSlug.get(slugOf(ref)) ?? (typeof ref === "number" && byId.has(ref) ? ref : undefined),
  );
  const unknown = refs.filter((_ref, index) => resolved[index] === undefined);
  if (unknown.length) throw invalidParam(param, `Unknown term(s): ${unknown.join(", ")}.`);
  return [...new Set(resolved.filter((id): id is number => id !== undefined))];
}

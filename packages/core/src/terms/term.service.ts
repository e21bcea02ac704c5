import { randomUUID } from "node:crypto";
import { requireCapability } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import { type RecordChange, recordChanges } from "../changes/change.record.ts";
import type { ChangeAction } from "../changes/change.schemas.ts";
import type { Tx } from "../db/db.ts";
import { runWrite } from "../db/write.ts";
import { type DomainError, domainError, invalidParam, invalidParams } from "../errors.ts";
import { EVENT_LINKS_GUARD, eventLinksShown } from "../linked-posts/event-links.ts";
import type { Scope } from "../scope.ts";
import type { LinkBase } from "../shared/links.ts";
import { totalPages } from "../shared/query.ts";
import { slugify, uniqueSlug } from "../shared/slug.ts";
import { type Translations, translationsOf } from "../shared/translations.ts";
import { readTermPage } from "./term.document.ts";
import { termEventsNamedBy } from "./term.filters.ts";
import { type TermFacts, type TermPageLinks, termPageLinks } from "./term.present.ts";
import type { Taxonomy, TermCreateBody, TermListQuery, TermUpdateBody } from "./term.schemas.ts";
import { type Client, slugTaken, type TermRow, type TermStore, termStore } from "./term.store.ts";
import { nameKeyOf } from "./term.where.ts";

/** What the shared term logic needs to know of categories or tags. */
export interface TermResource<TTerm> {
  taxonomy: Taxonomy;
  /** "category" or "tag", for messages. */
  noun: string;
  present(row: TermRow, facts: TermFacts, links: LinkBase): TTerm;
}

export interface TermPage<TTerm> extends TermPageLinks {
  items: TTerm[];
  total: number;
  total_pages: number;
}

// Reads

/** The count (kept on the row) and translations of each of a batch of rows: one translation query. */
async function factsOf(store: TermStore, rows: readonly TermRow[]): Promise<(row: TermRow) => TermFacts> {
  const translations = await translationsOf(rows, (groups) => store.find({ translationGroup: { in: groups } }));
  return (row) => ({ count: row.eventCount, translations: translations.get(row.id) ?? {} });
}

async function presentOne<TTerm>(store: TermStore, resource: TermResource<TTerm>, row: TermRow, links: LinkBase) {
  const facts = await factsOf(store, [row]);
  return resource.present(row, facts(row), links);
}

async function findById(store: TermStore, id: number): Promise<TermRow | undefined> {
  const [row] = await store.find({ id });
  return row;
}

/** The term with this id (any language), or 400 naming `id` (docs/behaviour.md, "Categories and tags": unknown ids are invalid parameters). */
async function requireTerm(store: TermStore, resource: TermResource<unknown>, id: number): Promise<TermRow> {
  const row = await findById(store, id);
  if (!row) throw invalidParam("id", `No ${resource.noun} has this id.`);
  return row;
}

async function unknownIds(store: TermStore, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const found = new Set((await store.find({ id: { in: [...ids] } })).map((row) => row.id));
  return ids.filter((id) => !found.has(id));
}

/**
 * Checks the ids a list refers to (an unknown one is a 400 naming its parameter, all of them together, as WordPress
 * does); then whether the actor sees the links of the events it names (`eventLinksShown`: a 403 for an event it may
 * not read, false when a password hides its details).
 */
async function checkListReferences(tx: Client, store: TermStore, actor: Actor, query: TermListQuery) {
  const invalid: Record<string, string> = {};
  for (const param of ["include", "exclude"] as const) {
    const missing = await unknownIds(store, query[param] ?? []);
    if (missing.length) invalid[param] = `Unknown id(s): ${missing.join(", ")}.`;
  }
  if (query.parent !== undefined && !(await findById(termStore(tx, "category"), query.parent))) {
    invalid.parent = "No category has this id.";
  }
  const events = [];
  for (const { param, id } of termEventsNamedBy(query)) {
    const event = await tx.event.findUnique({ where: { id }, select: EVENT_LINKS_GUARD });
    if (event) events.push(event);
    else invalid[param] = "No event has this id.";
  }
  if (Object.keys(invalid).length) throw invalidParams(invalid);
  return events.map((event) => eventLinksShown(actor, event)).every((shown) => shown);
}

/** `GET /categories` and `GET /tags`: a page of the terms of the request's language. */
export async function listTerms<TTerm>(
  scope: Scope,
  resource: TermResource<TTerm>,
  query: TermListQuery,
): Promise<TermPage<TTerm>> {
  const shown = await checkListReferences(scope.db, termStore(scope.db, resource.taxonomy), scope.actor, query);
  const { rows, total, translations } = shown
    ? await readTermPage(scope, resource.taxonomy, query)
    : { rows: [], total: 0, translations: new Map<number, Translations>() };
  const pages = totalPages(total, query.per_page);
  return {
    items: rows.map((row) =>
      resource.present(row, { count: row.eventCount, translations: translations.get(row.id) ?? {} }, scope.links),
    ),
    total,
    total_pages: pages,
    ...termPageLinks(scope.links, resource.taxonomy, query, pages),
  };
}

/** `GET /categories/{id}`: a term of any language. */
export async function getTerm<TTerm>(scope: Scope, resource: TermResource<TTerm>, id: number): Promise<TTerm> {
  const store = termStore(scope.db, resource.taxonomy);
  return presentOne(store, resource, await requireTerm(store, resource, id), scope.links);
}

// Writes

/** The PostgreSQL advisory lock that queues term writes (an arbitrary key, used for nothing else). */
const TERM_WRITE_LOCK = 7_301_002;

/**
 * Runs a term write with no concurrent term write in between, again when a concurrent write got in first (`runWrite`):
 * the name check has no unique index behind it. SQLite runs it serializable (it has one writer anyway). On PostgreSQL
 * every term write queues on an advisory lock and then runs read-committed, so each statement after the lock sees
 * every earlier term write: serializable would keep the snapshot taken before the wait, and each queued write would
 * then fail on the change version that the one before it advanced. The next attempt sees the other write and answers
 * `term_exists` or a 400 for a term now gone, or picks another slug.
 */
function serializedTermWrite<T>(scope: Scope, write: (tx: Tx) => Promise<T>): Promise<T> {
  const { db, provider } = scope;
  if (provider !== "postgres") return runWrite(db, write, { serializable: true });
  return runWrite(db, async (tx) => {
    await tx.$queryRaw`SELECT 1 AS "locked" FROM pg_advisory_xact_lock(${TERM_WRITE_LOCK})`;
    return write(tx);
  });
}

/** Terms are public: the feed shows their changes to everyone. */
function termChange<TTerm>(resource: TermResource<TTerm>, row: TermRow, action: ChangeAction): RecordChange {
  return { type: resource.taxonomy, id: row.id, action, language: row.language, status: "publish" };
}

function termExists(existing: TermRow): DomainError {
  return domainError("term_exists", undefined, { term_id: existing.id });
}

/** The parent id to store: 0 (none) or an existing category of the same language; else 400 naming `parent`. */
async function resolveParent(store: TermStore, parent: number | undefined, language: string) {
  if (!parent) return null;
  const row = await findById(store, parent);
  if (!row) throw invalidParam("parent", "No category has this id.");
  if (row.language !== language) throw invalidParam("parent", "The parent category is in another language.");
  return row.id;
}

/**
 * The term a record joins as a translation (`translation_of`): an existing term of the same kind whose group has
 * no other member in `language`. Null when not asked for.
 */
async function resolveTranslationSource(
  store: TermStore,
  resource: TermResource<unknown>,
  sourceId: number | undefined,
  record: { id?: number; language: string },
): Promise<TermRow | null> {
  if (sourceId === undefined) return null;
  const source = await findById(store, sourceId);
  if (!source) throw invalidParam("translation_of", `No ${resource.noun} has this id.`);
  if (source.id === record.id) throw invalidParam("translation_of", "A term cannot be a translation of itself.");
  const members = source.translationGroup ? await store.find({ translationGroup: source.translationGroup }) : [source];
  if (members.some((member) => member.language === record.language && member.id !== record.id)) {
    throw invalidParam("translation_of", `Its translation group already has a ${record.language} ${resource.noun}.`);
  }
  return source;
}

/** The group a record joins through `source`, starting one on the source when it has none. */
async function joinTranslationGroup(store: TermStore, source: TermRow): Promise<string> {
  if (source.translationGroup) return source.translationGroup;
  const group = randomUUID();
  await store.setTranslationGroup(source.id, group);
  return group;
}

/** 400 `term_exists` when another term of the language has this name (categories: under the same parent). */
async function assertNameIsFree(
  store: TermStore,
  term: Pick<TermRow, "name" | "language" | "parentId"> & { id?: number },
) {
  const [existing] = await store.find({
    language: term.language,
    nameKey: nameKeyOf(term.name),
    parentId: term.parentId,
    ...(term.id === undefined ? {} : { id: { not: term.id } }),
  });
  if (existing) throw termExists(existing);
}

/** 400 naming `parent` when the category would become its own ancestor. */
async function assertNoCycle(store: TermStore, term: TermRow, parentId: number | null): Promise<void> {
  const parents = new Map((await store.find({ language: term.language })).map((row) => [row.id, row.parentId]));
  for (let ancestor = parentId; ancestor !== null; ancestor = parents.get(ancestor) ?? null) {
    if (ancestor === term.id) throw invalidParam("parent", "A category cannot be its own ancestor.");
  }
}

/** `POST /categories`: a new term in the request's language (201). Needs `manage_categories`. */
export function createTerm<TTerm>(scope: Scope, resource: TermResource<TTerm>, body: TermCreateBody): Promise<TTerm> {
  const language = scope.language;
  return serializedTermWrite(scope, async (tx) => {
    const store = termStore(tx, resource.taxonomy);
    const parentId = await resolveParent(store, body.parent, language);
    const source = await resolveTranslationSource(store, resource, body.translation_of, { language });
    requireCapability(scope.actor, "manage_categories");
    await assertNameIsFree(store, { name: body.name, language, parentId });
    const row = await store.create({
      name: body.name,
      nameKey: nameKeyOf(body.name),
      slug: await uniqueSlug(slugify(body.slug ?? body.name, language), slugTaken(store, language)),
      description: body.description ?? "",
      parentId,
      language,
      translationGroup: source ? await joinTranslationGroup(store, source) : null,
    });
    await recordChanges(tx, [termChange(resource, row, "created")]);
    return presentOne(store, resource, row, scope.links);
  });
}

/** A slug sent on update must be free in the term's language (WordPress' `duplicate_term_slug`). */
async function checkedSlug(store: TermStore, term: TermRow, slug: string | undefined): Promise<string | undefined> {
  if (slug === undefined) return undefined;
  const wanted = slugify(slug, term.language);
  if (await slugTaken(store, term.language, term.id)(wanted)) {
    throw domainError("duplicate_term_slug", { slug: wanted });
  }
  return wanted;
}

/** `POST|PUT|PATCH /categories/{id}`: changes only the fields sent. Needs `manage_categories`. */
export function updateTerm<TTerm>(scope: Scope, resource: TermResource<TTerm>, body: TermUpdateBody): Promise<TTerm> {
  return serializedTermWrite(scope, async (tx) => {
    const store = termStore(tx, resource.taxonomy);
    const term = await requireTerm(store, resource, body.id);
    const parentId = body.parent === undefined ? term.parentId : await resolveParent(store, body.parent, term.language);
    const source = await resolveTranslationSource(store, resource, body.translation_of, term);
    requireCapability(scope.actor, "manage_categories");
    if (parentId !== term.parentId) await assertNoCycle(store, term, parentId);
    const name = body.name ?? term.name;
    if (body.name !== undefined || parentId !== term.parentId) {
      await assertNameIsFree(store, { id: term.id, name, language: term.language, parentId });
    }
    const updated = await store.update(term.id, {
      name,
      nameKey: nameKeyOf(name),
      slug: await checkedSlug(store, term, body.slug),
      description: body.description,
      parentId,
      translationGroup: source ? await joinTranslationGroup(store, source) : undefined,
    });
    await recordChanges(tx, [termChange(resource, updated, "updated")]);
    return presentOne(store, resource, updated, scope.links);
  });
}

/**
 * `DELETE /categories/{id}`: permanent (docs/behaviour.md, "Deleting"); answers the term as it was. The term's event links
 * go with it and its children move up to its parent. Needs `manage_categories`.
 */
export function deleteTerm<TTerm>(scope: Scope, resource: TermResource<TTerm>, id: number): Promise<TTerm> {
  return serializedTermWrite(scope, async (tx) => {
    const store = termStore(tx, resource.taxonomy);
    const term = await requireTerm(store, resource, id);
    requireCapability(scope.actor, "manage_categories");
    const presented = await presentOne(store, resource, term, scope.links);
    await store.remove(term);
    await recordChanges(tx, [termChange(resource, term, "deleted")]);
    return presented;
  });
}

import { requireCapability, requireEdit } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import { canRead, isRedacted, listStatusWhere } from "../auth/visibility.ts";
import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import { runWrite } from "../db/write.ts";
import { domainError, invalidParam } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { stampsAt } from "../shared/dates.ts";
import { pageWindow, totalPages } from "../shared/query.ts";
import { findBySlug } from "../shared/slug.ts";
import { normalizeText } from "../shared/text.ts";
import { translationsOf } from "../shared/translations.ts";
import { EVENT_LINKS_GUARD, eventLinksShown } from "./event-links.ts";
import { readLinkedPostPage } from "./linked-post.document.ts";
import type { LinkedPostKind, LinkedPostRow, LinkedPostStore } from "./linked-post.kind.ts";
import { listLinks } from "./linked-post.present.ts";
import type { LinkedPostListQuery, LinkedPostWriteFields } from "./linked-post.schemas.ts";
import { searchFieldCount } from "./linked-post.search.ts";
import { buildLinkedPostWhere, eventsNamedBy } from "./linked-post.where.ts";
import { applyWrite, createRow, requireAuthorChange, startGroup, validateWrite } from "./linked-post.write.ts";

/** The generic service of venues and organizers; `venue.service.ts` and `organizer.service.ts` bind it. */

type Kind<Own, Body extends LinkedPostWriteFields, Output> = LinkedPostKind<Own, Body, Output>;

/** An item path: by id (any language) or by slug (within the request's language). */
export type LinkedPostTarget = { id: number } | { slug: string };

interface PresentOptions {
  jsonLd: boolean;
  password?: string | undefined;
}

async function findTarget<Own>(
  kind: { singular: string },
  store: LinkedPostStore<Own>,
  language: string,
  target: LinkedPostTarget,
): Promise<LinkedPostRow<Own>> {
  if ("id" in target) {
    const row = await store.findFirst({ id: target.id });
    if (!row) throw invalidParam("id", `No ${kind.singular} has the id ${target.id}.`);
    return row;
  }
  const row = await findBySlug(target.slug, language, (slug) => store.findFirst({ language, slug }));
  if (!row) throw invalidParam("slug", `No ${kind.singular} has this slug.`);
  return row;
}

/** A write transaction on the record an item path names (a 400 naming `id` or `slug` when there is none). */
function writeOnTarget<Own, Body extends LinkedPostWriteFields, Output, Result>(
  kind: Kind<Own, Body, Output>,
  scope: Scope,
  target: LinkedPostTarget,
  work: (tx: Tx, row: LinkedPostRow<Own>) => Promise<Result>,
): Promise<Result> {
  return runWrite(scope.db, async (tx) => work(tx, await findTarget(kind, kind.store(tx), scope.language, target)));
}

/** The presenter of `rows` (one translation query for all of them), to map each of them with. */
async function presenterOf<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  db: Tx,
  scope: Scope,
  rows: ReadonlyArray<LinkedPostRow<Own>>,
  options: PresentOptions,
): Promise<(row: LinkedPostRow<Own>) => Output> {
  const visible = listStatusWhere(scope.actor, undefined);
  const translations = await translationsOf(rows, (groups) =>
    kind.store(db).findMany({ where: { AND: [{ translationGroup: { in: groups } }, visible] } }),
  );
  return (row) =>
    kind.present(row, {
      links: scope.links,
      jsonLd: options.jsonLd,
      redacted: isRedacted(scope.actor, row, options.password),
      translations: translations.get(row.id) ?? {},
    });
}

/** One record on the wire. */
async function presentRow<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  db: Tx,
  scope: Scope,
  row: LinkedPostRow<Own>,
  options: PresentOptions,
): Promise<Output> {
  return (await presenterOf(kind, db, scope, [row], options))(row);
}

/**
 * Checks the events a list names: an unknown one is a 400 naming its parameter, one the actor may not read answers
 * what `GET /events/{id}` answers (`eventLinksShown`).
 */
async function checkNamedEvents(db: Tx, actor: Actor, query: LinkedPostListQuery): Promise<void> {
  for (const { param, id } of eventsNamedBy(query)) {
    const event = await db.event.findUnique({ where: { id }, select: EVENT_LINKS_GUARD });
    if (!event) throw invalidParam(param, `No event has the id ${id}.`);
    eventLinksShown(actor, event);
  }
}

/** A page of the list, keyed by the kind's plural (`{ venues: [...], … }`), with its links and totals. */
async function listLinkedPosts<
  Own,
  Body extends LinkedPostWriteFields,
  Output extends { id: number },
  Plural extends "venues" | "organizers",
>(kind: Kind<Own, Body, Output> & { plural: Plural }, scope: Scope, query: LinkedPostListQuery) {
  const where = buildLinkedPostWhere(query, {
    actor: scope.actor,
    language: scope.language,
    now: new Date(),
    searchFieldCount: searchFieldCount(kind.searchColumns),
  });
  await checkNamedEvents(scope.db, scope.actor, query);
  const { rows, total, translations } = await readLinkedPostPage<Own>(scope, kind.singular, where, pageWindow(query));
  if (query.page > 1 && rows.length === 0) throw domainError(`${kind.singular}-archive-page-not-found`);
  const pages = totalPages(total, query.per_page);
  const items = rows.map((row) =>
    kind.present(row, {
      links: scope.links,
      jsonLd: false,
      redacted: isRedacted(scope.actor, row),
      translations: translations.get(row.id) ?? {},
    }),
  );
  return {
    ...({ [kind.plural]: items } as Record<Plural, Output[]>),
    ...listLinks(scope.links, kind.plural, query, pages),
    total,
    total_pages: pages,
  };
}

async function getLinkedPost<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  scope: Scope,
  target: LinkedPostTarget,
  password?: string,
): Promise<Output> {
  const row = await findTarget(kind, kind.store(scope.db), scope.language, target);
  if (!canRead(scope.actor, row)) throw domainError(`${kind.singular}-not-accessible`);
  return presentRow(kind, scope.db, scope, row, { jsonLd: true, password });
}

function createLinkedPost<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  scope: Scope,
  body: Body,
): Promise<Output> {
  return runWrite(
    scope.db,
    async (tx) => {
      const row = await createRow(kind, tx, scope, body);
      await recordChanges(tx, [{ type: kind.singular, action: "created", ...row }]);
      return presentRow(kind, tx, scope, row, { jsonLd: false });
    },
    {
      serializable: true,
      queueKey: `${kind.singular}-name:${scope.language}:${normalizeText(kind.nameOf(body) ?? "")}`,
    },
  );
}

function updateLinkedPost<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  scope: Scope,
  target: LinkedPostTarget,
  body: Body,
): Promise<Output> {
  return writeOnTarget(kind, scope, target, async (tx, row) => {
    const store = kind.store(tx);
    const write = await validateWrite(kind, tx, scope, body, row.language, row.id);
    requireEdit(scope.actor, row);
    requireAuthorChange(scope.actor, body.author);
    await startGroup(store, write.join);
    const updated = await applyWrite(kind, store, scope, row, body, write, kind.nameOf(body));
    await recordChanges(tx, [{ type: kind.singular, action: "updated", ...updated }]);
    return presentRow(kind, tx, scope, updated, { jsonLd: false });
  });
}

/**
 * Moves a record to the trash (410 when it is there already) or, with `force` (administrators), deletes it.
 * Either way every event's link to it goes in the same transaction, and it leaves its translation group (the
 * others keep theirs, and the language is free for a new translation).
 */
function removeLinkedPost<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  scope: Scope,
  target: LinkedPostTarget,
  force: boolean,
): Promise<Output> {
  return writeOnTarget(kind, scope, target, async (tx, row) => {
    if (force) requireCapability(scope.actor, "delete_permanently");
    requireEdit(scope.actor, row);
    if (force) return deleteRow(kind, tx, scope, row);
    if (row.status === "trash") throw domainError(`${kind.singular}-is-in-trash`);
    return trashRow(kind, tx, scope, row);
  });
}

async function deleteRow<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  tx: Tx,
  scope: Scope,
  row: LinkedPostRow<Own>,
): Promise<Output> {
  const store = kind.store(tx);
  const removed = await presentRow(kind, tx, scope, row, { jsonLd: false });
  await store.unlinkEvents(row.id);
  await store.remove(row.id);
  await recordChanges(tx, [{ type: kind.singular, action: "deleted", ...row }]);
  return removed;
}

async function trashRow<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  tx: Tx,
  scope: Scope,
  row: LinkedPostRow<Own>,
): Promise<Output> {
  const store = kind.store(tx);
  await store.unlinkEvents(row.id);
  const now = new Date();
  const modified = stampsAt(now, scope.site.timezone).local;
  const trashed = await store.update(row.id, {
    status: "trash",
    translationGroup: null,
    modified,
    modifiedUtc: now,
  });
  await recordChanges(tx, [{ type: kind.singular, action: "trashed", ...trashed }]);
  return presentRow(kind, tx, scope, trashed, { jsonLd: false });
}

/**
 * The wire shapes of the given records in a fixed number of queries (missing and trashed ones are left out);
 * password-protected ones are redacted unless the actor may edit them.
 */
async function loadLinkedPostsById<Own, Body extends LinkedPostWriteFields, Output extends { id: number }>(
  kind: Kind<Own, Body, Output>,
  db: Tx,
  scope: Scope,
  ids: readonly number[],
  options: { jsonLd: boolean },
): Promise<Map<number, Output>> {
  if (ids.length === 0) return new Map<number, Output>();
  const rows = await kind.store(db).findMany({ where: { id: { in: [...new Set(ids)] }, status: { not: "trash" } } });
  const outputs = rows.map(await presenterOf(kind, db, scope, rows, options));
  return new Map(outputs.map((output) => [output.id, output]));
}

/** The service of one kind: its list keyed by the kind's plural (`{ venues: [...], … }`), every write one transaction. */
export function linkedPostService<
  Own,
  Body extends LinkedPostWriteFields,
  Output extends { id: number },
  Plural extends "venues" | "organizers",
>(kind: Kind<Own, Body, Output> & { plural: Plural }) {
  return {
    list: (scope: Scope, query: LinkedPostListQuery) => listLinkedPosts(kind, scope, query),
    get: (scope: Scope, target: LinkedPostTarget, password?: string) => getLinkedPost(kind, scope, target, password),
    create: (scope: Scope, body: Body) => createLinkedPost(kind, scope, body),
    update: (scope: Scope, target: LinkedPostTarget, body: Body) => updateLinkedPost(kind, scope, target, body),
    remove: (scope: Scope, target: LinkedPostTarget, force: boolean) => removeLinkedPost(kind, scope, target, force),
    /**
     * Creates a record inside the caller's transaction and returns its id; a duplicate (same name, and same
     * description when one is sent) is returned instead, updated with the fields sent when the actor may edit it.
     */
    createInTx: async (tx: Tx, scope: Scope, body: Body): Promise<number> =>
      (await createRow(kind, tx, scope, body)).id,
    loadById: (db: Tx, scope: Scope, ids: readonly number[], options: { jsonLd: boolean }) =>
      loadLinkedPostsById(kind, db, scope, ids, options),
  };
}

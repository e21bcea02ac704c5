import { randomUUID } from "node:crypto";
import { canEdit, canRead, requireCapability, requireEdit, scaleBackStatus } from "../auth/capabilities.ts";
import { isRedacted } from "../auth/password-protection.ts";
import type { Actor } from "../auth/roles.ts";
import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import { runWrite } from "../db/write.ts";
import { domainError, invalidParam, missingParams } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { formatWallTime, parseDateTime, stampsAt } from "../shared/dates.ts";
import { definedOnly } from "../shared/fields.ts";
import { resolveImage } from "../shared/images.ts";
import { pageWindow, totalPages } from "../shared/query.ts";
import { slugify, uniqueSlug } from "../shared/slug.ts";
import { normalizeText } from "../shared/text.ts";
import { type Translations, translationsOf } from "../shared/translations.ts";
import { listStatusWhere } from "../shared/visibility.ts";
import { readLinkedPostPage } from "./linked-post.document.ts";
import type { LinkedPostColumns, LinkedPostKind, LinkedPostRow, LinkedPostStore } from "./linked-post.kind.ts";
import { listLinks } from "./linked-post.present.ts";
import type { LinkedPostListQuery, LinkedPostWriteFields } from "./linked-post.schemas.ts";
import { linkedPostSearchText, searchFieldCount } from "./linked-post.search.ts";
import { buildLinkedPostWhere } from "./linked-post.where.ts";

/** The generic service of venues and organizers; `venue.service.ts` and `organizer.service.ts` bind it. */

type Kind<Own, Body extends LinkedPostWriteFields, Output> = LinkedPostKind<Own, Body, Output>;

/** An item path: by id (any language) or by slug (within the request's language). */
export type LinkedPostTarget = { id: number } | { slug: string };

interface PresentOptions {
  jsonLd: boolean;
  password?: string | undefined;
}

function actorId(actor: Actor): number | null {
  return actor.kind === "user" ? actor.id : null;
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
  const row = await store.findFirst({ language, slug: target.slug });
  if (!row) throw invalidParam("slug", `No ${kind.singular} has this slug.`);
  return row;
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
 * Checks the `event` filter: an unknown event is a 400. Are that event's links shown to the actor? Not when a
 * password protects them from it (they are among its details).
 */
async function eventLinksShown(db: Tx, actor: Actor, id: number): Promise<boolean> {
  const event = await db.event.findUnique({ where: { id }, select: { password: true, status: true, authorId: true } });
  if (!event) throw invalidParam("event", `No event has the id ${id}.`);
  return !isRedacted(actor, event);
}

/** Publication dates from `date` (site time zone) and `date_utc`; `date_utc` fixes the instant when both come. */
function publicationDates(body: LinkedPostWriteFields, siteZone: string): Partial<LinkedPostColumns> {
  const local = body.date === undefined ? undefined : parseDateTime(body.date, siteZone);
  if (local === null) throw invalidParam("date", "Not a date.");
  const utc = body.date_utc === undefined ? undefined : parseDateTime(body.date_utc, "UTC");
  if (utc === null) throw invalidParam("date_utc", "Not a date.");
  const instant = utc ?? local;
  if (!instant) return {};
  return { postDate: formatWallTime(local ?? instant, siteZone), postDateUtc: instant.toJSDate() };
}

/** The columns a write sets: the common ones, and the kind's own. */
interface WriteColumns<Own> {
  common: Partial<LinkedPostColumns>;
  own: Partial<Own>;
}

/** Validates a write and turns it into columns (all but name, slug, status, group and search text). */
async function writeColumns<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  tx: Tx,
  scope: Scope,
  body: Body,
): Promise<WriteColumns<Own>> {
  if (body.author !== undefined && !(await tx.user.findUnique({ where: { id: body.author }, select: { id: true } }))) {
    throw invalidParam("author", `No user has the id ${body.author}.`);
  }
  const common: Partial<LinkedPostColumns> = {
    ...definedOnly({
      authorId: body.author,
      description: body.description,
      excerpt: body.excerpt,
      password: body.password,
      website: body.website,
      phone: body.phone,
    }),
    ...publicationDates(body, scope.site.timezone),
    ...(body.image === undefined ? {} : { imageId: await resolveImage(tx, body.image) }),
  };
  return { common, own: kind.ownColumnsOf(body) };
}

/** A new author other than oneself needs the right to edit others' posts. */
function requireAuthorChange(actor: Actor, authorId: number | undefined): void {
  if (authorId !== undefined && authorId !== actorId(actor)) requireCapability(actor, "edit_others_posts");
}

interface GroupJoin {
  group: string;
  /** The record joined, when it starts the group. */
  starter?: number;
}

/**
 * The translation group `translation_of` joins: that of another record the actor can see and that is not in the
 * trash; it must not have the language yet (docs/behaviour.md, "Languages and translations").
 */
async function translationGroupOf<Own>(
  kind: { singular: string },
  store: LinkedPostStore<Own>,
  actor: Actor,
  targetId: number,
  language: string,
  selfId?: number,
): Promise<GroupJoin> {
  const target = await store.findFirst({ id: targetId, status: { not: "trash" } });
  if (!target || target.id === selfId || !canRead(actor, target)) {
    throw invalidParam("translation_of", `No ${kind.singular} has the id ${targetId}.`);
  }
  const members = target.translationGroup
    ? await store.findMany({ where: { translationGroup: target.translationGroup } })
    : [target];
  if (members.some((member) => member.language === language && member.id !== selfId)) {
    throw invalidParam("translation_of", `That ${kind.singular} already has a ${language} translation.`);
  }
  return target.translationGroup ? { group: target.translationGroup } : { group: randomUUID(), starter: target.id };
}

/** A write that passed validation: its columns and the translation group it joins. */
interface ValidatedWrite<Own> {
  columns: WriteColumns<Own>;
  join: GroupJoin | undefined;
}

/** Every check that can make a write a 400; they come before the permission checks, as in WordPress. */
async function validateWrite<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  tx: Tx,
  scope: Scope,
  body: Body,
  language: string,
  selfId?: number,
): Promise<ValidatedWrite<Own>> {
  const columns = await writeColumns(kind, tx, scope, body);
  const join =
    body.translation_of === undefined
      ? undefined
      : await translationGroupOf(kind, kind.store(tx), scope.actor, body.translation_of, language, selfId);
  return { columns, join };
}

async function startGroup<Own>(store: LinkedPostStore<Own>, join: GroupJoin | undefined): Promise<void> {
  if (join?.starter !== undefined) await store.update(join.starter, { translationGroup: join.group });
}

async function freeSlug<Own>(store: LinkedPostStore<Own>, language: string, wanted: string, selfId?: number) {
  const notSelf = selfId === undefined ? {} : { id: { not: selfId } };
  return uniqueSlug(slugify(wanted), async (slug) => (await store.findFirst({ language, slug, ...notSelf })) !== null);
}

/** An existing record the create should return instead (docs/behaviour.md, "Venues and organizers"). */
async function findDuplicate<Own>(
  store: LinkedPostStore<Own>,
  scope: Scope,
  name: string,
  description: string | undefined,
): Promise<LinkedPostRow<Own> | undefined> {
  const candidates = await store.findMany({
    where: { language: scope.language, nameKey: normalizeText(name), status: { not: "trash" } },
  });
  const wanted = description === undefined ? undefined : normalizeText(description);
  return candidates
    .filter((row) => canRead(scope.actor, row))
    .filter((row) => wanted === undefined || normalizeText(row.description) === wanted)
    .sort((a, b) => a.id - b.id)[0];
}

/** Applies a write to an existing record: only the fields sent change; the search text follows. */
async function applyWrite<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  store: LinkedPostStore<Own>,
  scope: Scope,
  row: LinkedPostRow<Own>,
  body: Body,
  write: ValidatedWrite<Own>,
  name: string | undefined,
): Promise<LinkedPostRow<Own>> {
  const { columns, join } = write;
  const now = new Date();
  const stamp = stampsAt(now, scope.site.timezone);
  const changes: Partial<LinkedPostColumns> = {
    ...columns.common,
    ...(name === undefined ? {} : { name, nameKey: normalizeText(name) }),
    ...(body.status === undefined ? {} : { status: scaleBackStatus(scope.actor, body.status) }),
    ...(body.slug === undefined ? {} : { slug: await freeSlug(store, row.language, body.slug, row.id) }),
    ...(join === undefined ? {} : { translationGroup: join.group }),
    modified: stamp.local,
    modifiedUtc: now,
  };
  const merged: LinkedPostColumns & Own = { ...row, ...changes, ...columns.own };
  const searchText = linkedPostSearchText(merged, kind.searchColumns);
  return store.update(row.id, { ...changes, searchText }, columns.own);
}

async function createRow<Own, Body extends LinkedPostWriteFields, Output>(
  kind: Kind<Own, Body, Output>,
  tx: Tx,
  scope: Scope,
  body: Body,
): Promise<LinkedPostRow<Own>> {
  const name = kind.nameOf(body);
  if (name === undefined) throw missingParams([kind.singular]);
  const store = kind.store(tx);
  const write = await validateWrite(kind, tx, scope, body, scope.language);
  requireCapability(scope.actor, "create_posts");
  requireAuthorChange(scope.actor, body.author);
  const duplicate = await findDuplicate(store, scope, name, body.description);
  // A duplicate the actor may not edit is reused as it is; otherwise it takes the fields sent but keeps its name.
  if (duplicate && !canEdit(scope.actor, duplicate)) return duplicate;
  await startGroup(store, write.join);
  if (duplicate) return applyWrite(kind, store, scope, duplicate, body, write, undefined);
  const now = new Date();
  const stamp = stampsAt(now, scope.site.timezone);
  const record: LinkedPostColumns & Own = {
    name,
    nameKey: normalizeText(name),
    slug: await freeSlug(store, scope.language, body.slug ?? name),
    description: "",
    excerpt: "",
    status: scaleBackStatus(scope.actor, body.status),
    authorId: actorId(scope.actor),
    language: scope.language,
    translationGroup: write.join?.group ?? null,
    postDate: stamp.local,
    postDateUtc: now,
    modified: stamp.local,
    modifiedUtc: now,
    password: "",
    website: "",
    phone: "",
    imageId: null,
    searchText: "",
    ...write.columns.common,
    ...kind.defaults,
    ...write.columns.own,
  };
  return store.create({ ...record, searchText: linkedPostSearchText(record, kind.searchColumns) });
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
  const shown = query.event === undefined || (await eventLinksShown(scope.db, scope.actor, query.event));
  const { rows, total, translations } = shown
    ? await readLinkedPostPage<Own>(scope, kind.singular, where, pageWindow(query))
    : { rows: [], total: 0, translations: new Map<number, Translations>() };
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
  return runWrite(scope.db, async (tx) => {
    const store = kind.store(tx);
    const row = await findTarget(kind, store, scope.language, target);
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
  return runWrite(scope.db, async (tx) => {
    const store = kind.store(tx);
    const row = await findTarget(kind, store, scope.language, target);
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

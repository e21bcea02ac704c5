import { randomUUID } from "node:crypto";
import { canEdit, requireCapability, scaleBackStatus } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import { canRead } from "../auth/visibility.ts";
import type { Tx } from "../db/db.ts";
import { invalidParam, missingParams } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { formatWallTime, parseDateTime, stampsAt } from "../shared/dates.ts";
import { definedOnly } from "../shared/fields.ts";
import { resolveImage } from "../shared/images.ts";
import { slugify, uniqueSlug } from "../shared/slug.ts";
import { normalizeText } from "../shared/text.ts";
import { requireTranslationRights } from "../shared/translations.ts";
import type { LinkedPostColumns, LinkedPostKind, LinkedPostRow, LinkedPostStore } from "./linked-post.kind.ts";
import type { LinkedPostWriteFields } from "./linked-post.schemas.ts";
import { linkedPostSearchText } from "./linked-post.search.ts";

/** How a write of a venue or organizer is validated and turned into columns, for `linked-post.service.ts`. */

type Kind<Own, Body extends LinkedPostWriteFields, Output> = LinkedPostKind<Own, Body, Output>;

function actorId(actor: Actor): number | null {
  return actor.kind === "user" ? actor.id : null;
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
export function requireAuthorChange(actor: Actor, authorId: number | undefined): void {
  if (authorId !== undefined && authorId !== actorId(actor)) requireCapability(actor, "edit_others_posts");
}

interface GroupJoin {
  group: string;
  /** The record joined, when it starts the group. */
  starter?: number;
}

/**
 * The translation group `translation_of` joins: that of another record the actor can see and that is not in the
 * trash; it must not have the language yet, and the actor must be allowed to edit it (docs/behaviour.md,
 * "Languages and translations").
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
  requireTranslationRights(actor, target, kind.singular);
  return target.translationGroup ? { group: target.translationGroup } : { group: randomUUID(), starter: target.id };
}

/** A write that passed validation: its columns and the translation group it joins. */
interface ValidatedWrite<Own> {
  columns: WriteColumns<Own>;
  join: GroupJoin | undefined;
}

/** Every check that can make a write a 400; they come before the permission checks, as in WordPress. */
export async function validateWrite<Own, Body extends LinkedPostWriteFields, Output>(
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

export async function startGroup<Own>(store: LinkedPostStore<Own>, join: GroupJoin | undefined): Promise<void> {
  if (join?.starter !== undefined) await store.update(join.starter, { translationGroup: join.group });
}

async function freeSlug<Own>(store: LinkedPostStore<Own>, language: string, wanted: string, selfId?: number) {
  const notSelf = selfId === undefined ? {} : { id: { not: selfId } };
  return uniqueSlug(
    slugify(wanted, language),
    async (slug) => (await store.findFirst({ language, slug, ...notSelf })) !== null,
  );
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
export async function applyWrite<Own, Body extends LinkedPostWriteFields, Output>(
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

export async function createRow<Own, Body extends LinkedPostWriteFields, Output>(
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

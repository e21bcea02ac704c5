import { randomUUID } from "node:crypto";
import { can, requireCapability, requireEdit, scaleBackStatus } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import type { Tx } from "../db/db.ts";
import { forbidden, invalidParam } from "../errors.ts";
import { runWrite } from "../linked-posts/linked-post.transaction.ts";
import type { OrganizerCreateBody } from "../organizers/organizer.schemas.ts";
import { createOrganizerInTx } from "../organizers/organizer.service.ts";
import { stampsAt } from "../shared/dates.ts";
import { resolveImage } from "../shared/images.ts";
import { slugify, uniqueSlug } from "../shared/slug.ts";
import { resolveTermIdsForWrite } from "../terms/term.service.ts";
import type { Scope } from "../trpc/context.ts";
import type { VenueCreateBody } from "../venues/venue.schemas.ts";
import { createVenueInTx } from "../venues/venue.service.ts";
import { scheduleOf } from "./event.dates.ts";
import { eventNotFound, invalidLinkedPostId, unknownLinkedIds } from "./event.errors.ts";
import { presentEventById } from "./event.read.service.ts";
import type { EventCreateBody, EventOutput, EventUpdateInput, EventWriteFields, LinkedIdRef } from "./event.schemas.ts";
import { eventSearchText } from "./event.search.ts";
import { changesSchedule, postDateOf, scalarChanges, uniqueIds } from "./event.write.ts";

type LinkRef<T> = number | LinkedIdRef | T;

/** A link of an event write: an existing record, or one to create from inline fields. */
type PlannedLink<T> = { id: number } | { inline: T };

/**
 * Checks the ids of a `venue`/`organizer` write: an unknown bare id is a 400 naming the parameter, an unknown
 * `{id}` is `invalid-linked-post-id` (reference 3.3). Trashed records cannot be linked.
 */
async function planLinks<T extends object>(
  refs: ReadonlyArray<LinkRef<T>>,
  param: "venue" | "organizer",
  findExisting: (ids: number[]) => Promise<Array<{ id: number }>>,
): Promise<Array<PlannedLink<T>>> {
  const bare = refs.filter((ref): ref is number => typeof ref === "number");
  const referenced = refs.flatMap((ref) => (typeof ref === "object" && "id" in ref ? [ref.id] : []));
  const ids = uniqueIds([...bare, ...referenced]);
  const found = new Set((ids.length ? await findExisting(ids) : []).map((row) => row.id));
  const unknown = bare.filter((id) => !found.has(id));
  if (unknown.length) throw unknownLinkedIds(param, uniqueIds(unknown));
  if (referenced.some((id) => !found.has(id))) throw invalidLinkedPostId();
  return refs.map((ref) => {
    if (typeof ref === "number") return { id: ref };
    return "id" in ref ? { id: ref.id } : { inline: ref };
  });
}

/** The linked ids, creating the inline records one after the other (so duplicates within a write are found). */
async function linkIds<T>(planned: ReadonlyArray<PlannedLink<T>>, create: (inline: T) => Promise<number>) {
  const ids: number[] = [];
  for (const link of planned) ids.push("inline" in link ? await create(link.inline) : link.id);
  return uniqueIds(ids);
}

interface TranslationPlan {
  group: string;
  /** The event translated, when it starts a new group with this write. */
  startsGroupOf?: number;
}

/**
 * Joining the translation group of `translation_of`: it must be another event, and its group must not yet have
 * an event in `language` (else a 400 naming `translation_of`).
 */
async function planTranslation(
  tx: Tx,
  targetId: number,
  language: string,
  selfId: number | undefined,
): Promise<TranslationPlan> {
  const target = await tx.event.findUnique({
    where: { id: targetId },
    select: { id: true, language: true, translationGroup: true },
  });
  if (!target || target.id === selfId) throw invalidParam("translation_of", `No other event with the id ${targetId}.`);
  const members = target.translationGroup
    ? await tx.event.findMany({
        where: { translationGroup: target.translationGroup },
        select: { id: true, language: true },
      })
    : [target];
  if (members.some((member) => member.language === language && member.id !== selfId)) {
    throw invalidParam("translation_of", `Event ${targetId} already has a translation in "${language}".`);
  }
  return target.translationGroup
    ? { group: target.translationGroup }
    : { group: randomUUID(), startsGroupOf: target.id };
}

interface CheckedReferences {
  venues?: Array<PlannedLink<VenueCreateBody>> | undefined;
  organizers?: Array<PlannedLink<OrganizerCreateBody>> | undefined;
  translation?: TranslationPlan | undefined;
}

/** Validation of every reference a write makes, before any permission check (reference 1.2). Read-only. */
async function checkReferences(
  tx: Tx,
  fields: EventWriteFields,
  target: { language: string; selfId?: number | undefined },
): Promise<CheckedReferences> {
  if (fields.author !== undefined && !(await tx.user.findUnique({ where: { id: fields.author } }))) {
    throw invalidParam("author", `No user with the id ${fields.author}.`);
  }
  if (fields.post_parent) {
    const parent = await tx.event.findUnique({ where: { id: fields.post_parent }, select: { id: true } });
    if (!parent || parent.id === target.selfId) {
      throw invalidParam("post_parent", `No other event with the id ${fields.post_parent}.`);
    }
  }
  const live = { status: { not: "trash" } };
  return {
    venues:
      fields.venue &&
      (await planLinks(fields.venue, "venue", (ids) =>
        tx.venue.findMany({ where: { id: { in: ids }, ...live }, select: { id: true } }),
      )),
    organizers:
      fields.organizer &&
      (await planLinks(fields.organizer, "organizer", (ids) =>
        tx.organizer.findMany({ where: { id: { in: ids }, ...live }, select: { id: true } }),
      )),
    translation:
      fields.translation_of === undefined
        ? undefined
        : await planTranslation(tx, fields.translation_of, target.language, target.selfId),
  };
}

/** Writing as another author needs the right to edit others' events. */
function requireAuthorChoice(actor: Actor, author: number | undefined, current: number | null | undefined): void {
  if (author === undefined || author === current || (actor.kind === "user" && author === actor.id)) return;
  if (!can(actor, "edit_others_posts")) throw forbidden(actor.kind === "anonymous");
}

/** The link rows and foreign keys a write sets; fields not sent are absent. Creates what must be created. */
async function writeLinks(tx: Tx, scope: Scope, fields: EventWriteFields, checked: CheckedReferences) {
  const venueIds = checked.venues && (await linkIds(checked.venues, (venue) => createVenueInTx(tx, scope, venue)));
  const organizerIds =
    checked.organizers && (await linkIds(checked.organizers, (organizer) => createOrganizerInTx(tx, scope, organizer)));
  const categoryIds = fields.categories && (await resolveTermIdsForWrite(tx, scope, "category", fields.categories));
  const tagIds = fields.tags && (await resolveTermIdsForWrite(tx, scope, "tag", fields.tags));
  return {
    imageId: fields.image === undefined ? undefined : await resolveImage(tx, fields.image),
    parentId: fields.post_parent === undefined ? undefined : fields.post_parent || null,
    venues: venueIds && { create: venueIds.map((venueId, position) => ({ venueId, position })) },
    organizers: organizerIds && { create: organizerIds.map((organizerId, position) => ({ organizerId, position })) },
    categories: categoryIds && { create: categoryIds.map((categoryId) => ({ categoryId })) },
    tags: tagIds && { create: tagIds.map((tagId) => ({ tagId })) },
  };
}

/** On update, links that are sent replace the current ones. */
function replacing<T>(links: { create: T[] } | undefined) {
  return links && { deleteMany: {}, create: links.create };
}

function slugTaken(tx: Tx, language: string, selfId?: number) {
  return async (slug: string) =>
    (await tx.event.findFirst({ where: { language, slug, NOT: { id: selfId } }, select: { id: true } })) !== null;
}

async function joinGroup(tx: Tx, plan: TranslationPlan | undefined): Promise<void> {
  if (plan?.startsGroupOf !== undefined) {
    await tx.event.update({ where: { id: plan.startsGroupOf }, data: { translationGroup: plan.group } });
  }
}

/** `POST /events` (reference 3.3): one transaction; a failure anywhere leaves nothing behind. */
export async function createEvent(scope: Scope, body: EventCreateBody): Promise<EventOutput> {
  const { actor, site } = scope;
  const now = new Date();
  const schedule = scheduleOf(body, undefined, site.timezone, now);
  const id = await runWrite(scope.db, async (tx) => {
    const checked = await checkReferences(tx, body, { language: scope.language });
    requireCapability(actor, "create_posts");
    requireAuthorChoice(actor, body.author, undefined);
    const links = await writeLinks(tx, scope, body, checked);
    const stamp = stampsAt(now, site.timezone);
    const posted = postDateOf(body, schedule.timezone, site.timezone, now) ?? {
      postDate: stamp.local,
      postDateUtc: stamp.utc,
    };
    await joinGroup(tx, checked.translation);
    const created = await tx.event.create({
      data: {
        ...scalarChanges(body),
        ...schedule,
        ...posted,
        ...links,
        title: body.title,
        slug: await uniqueSlug(slugify(body.slug ?? body.title), slugTaken(tx, scope.language)),
        status: scaleBackStatus(actor, body.status),
        authorId: body.author ?? (actor.kind === "user" ? actor.id : null),
        language: scope.language,
        translationGroup: checked.translation?.group,
        modified: stamp.local,
        modifiedUtc: stamp.utc,
        searchText: eventSearchText({
          title: body.title,
          excerpt: body.excerpt ?? "",
          description: body.description ?? "",
        }),
      },
      select: { id: true },
    });
    return created.id;
  });
  return presentEventById(scope, id);
}

/**
 * `POST|PUT|PATCH /events/{id}` (reference 3.4, decision 4): only the fields sent change; links sent empty are
 * removed. A missing event is a 404 for those who may edit events at all (401/403 for the others).
 */
export async function updateEvent(scope: Scope, input: EventUpdateInput): Promise<EventOutput> {
  const { id, ml_language: _language, ...fields } = input;
  const { actor, site } = scope;
  const now = new Date();
  await runWrite(scope.db, async (tx) => {
    const existing = await tx.event.findUnique({ where: { id } });
    const checked = await checkReferences(tx, fields, { language: existing?.language ?? scope.language, selfId: id });
    const schedule = existing && changesSchedule(fields) ? scheduleOf(fields, existing, site.timezone, now) : undefined;
    if (!existing) {
      requireCapability(actor, "create_posts");
      throw eventNotFound(id);
    }
    requireEdit(actor, existing);
    requireAuthorChoice(actor, fields.author, existing.authorId);
    const links = await writeLinks(tx, scope, fields, checked);
    const stamp = stampsAt(now, site.timezone);
    await joinGroup(tx, checked.translation);
    await tx.event.update({
      where: { id },
      data: {
        ...scalarChanges(fields),
        ...schedule,
        ...postDateOf(fields, schedule?.timezone ?? existing.timezone, site.timezone, now),
        imageId: links.imageId,
        parentId: links.parentId,
        venues: replacing(links.venues),
        organizers: replacing(links.organizers),
        categories: replacing(links.categories),
        tags: replacing(links.tags),
        slug: fields.slug && (await uniqueSlug(slugify(fields.slug), slugTaken(tx, existing.language, id))),
        status: fields.status && scaleBackStatus(actor, fields.status),
        authorId: fields.author,
        translationGroup: checked.translation?.group,
        modified: stamp.local,
        modifiedUtc: stamp.utc,
        searchText: eventSearchText({
          title: fields.title ?? existing.title,
          excerpt: fields.excerpt ?? existing.excerpt,
          description: fields.description ?? existing.description,
        }),
      },
    });
  });
  return presentEventById(scope, id);
}

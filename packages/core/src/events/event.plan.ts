import { randomUUID } from "node:crypto";
import { can, canRead, scaleBackStatus } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import type { Tx } from "../db/db.ts";
import { domainError, forbidden, invalidParam } from "../errors.ts";
import type { OrganizerCreateBody } from "../organizers/organizer.schemas.ts";
import { createOrganizerInTx } from "../organizers/organizer.service.ts";
import type { Scope } from "../scope.ts";
import { stampsAt } from "../shared/dates.ts";
import { resolveImage } from "../shared/images.ts";
import type { Language } from "../shared/language.ts";
import { slugify, uniqueSlugs } from "../shared/slug.ts";
import { idsInLanguage, type Translatable } from "../shared/translations.ts";
import { resolveTermIdsForWrite } from "../terms/term.lookup.ts";
import type { VenueCreateBody } from "../venues/venue.schemas.ts";
import { createVenueInTx } from "../venues/venue.service.ts";
import type { EventSchedule } from "./event.dates.ts";
import { unknownLinkedIds } from "./event.errors.ts";
import type { EventCreateBody, EventWriteFields, LinkedIdRef } from "./event.schemas.ts";
import { eventSearchText } from "./event.search.ts";
import { postDateOf, scalarChanges, uniqueIds } from "./event.write.ts";

/** What `POST /events` and the updates of an event check and plan before they write: links, translation, slug, columns. */

type LinkRef<T> = number | LinkedIdRef | T;

/** A link of an event write: an existing record, or one to create from inline fields. */
type PlannedLink<T> = { id: number } | { inline: T };

/** A query for the live (not trashed) venues or organizers a write may link, with their translation groups. */
type FindLinkable = (
  where: { id: { in: number[] } } | { translationGroup: { in: string[] }; language: string },
) => Promise<Translatable[]>;

/**
 * Checks the ids of a `venue`/`organizer` write: an unknown bare id is a 400 naming the parameter, an unknown
 * `{id}` is `invalid-linked-post-id` (docs/behaviour.md, "Creating events"). Trashed records cannot be linked. A record of another
 * language than the event's is replaced by its translation in the event's language when it has one.
 */
async function planLinks<T extends object>(
  refs: ReadonlyArray<LinkRef<T>>,
  param: "venue" | "organizer",
  findLinkable: FindLinkable,
  language: string,
): Promise<Array<PlannedLink<T>>> {
  const bare = refs.filter((ref): ref is number => typeof ref === "number");
  const referenced = refs.flatMap((ref) => (typeof ref === "object" && "id" in ref ? [ref.id] : []));
  const ids = uniqueIds([...bare, ...referenced]);
  const rows = ids.length ? await findLinkable({ id: { in: ids } }) : [];
  const found = new Set(rows.map((row) => row.id));
  const unknown = bare.filter((id) => !found.has(id));
  if (unknown.length) throw unknownLinkedIds(param, uniqueIds(unknown));
  if (referenced.some((id) => !found.has(id))) throw domainError("invalid-linked-post-id");
  const idFor = await idsInLanguage(rows, language, (groups) =>
    findLinkable({ translationGroup: { in: groups }, language }),
  );
  const inLanguage = (id: number) => ({ id: idFor.get(id) ?? id });
  return refs.map((ref) => {
    if (typeof ref === "number") return inLanguage(ref);
    return "id" in ref ? inLanguage(ref.id) : { inline: ref };
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
 * Joining the translation group of `translation_of`: it must be another event that the actor can see and that is
 * not in the trash, and its group must not yet have an event in `language` (else a 400 naming `translation_of`).
 */
async function planTranslation(
  tx: Tx,
  actor: Actor,
  targetId: number,
  language: string,
  selfId: number | undefined,
): Promise<TranslationPlan> {
  const target = await tx.event.findUnique({
    where: { id: targetId },
    select: { id: true, language: true, translationGroup: true, status: true, authorId: true },
  });
  if (!target || target.id === selfId || target.status === "trash" || !canRead(actor, target)) {
    throw invalidParam("translation_of", `No other event with the id ${targetId}.`);
  }
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

/** Validation of every reference a write makes, before any permission check (docs/behaviour.md, "Validation before permission"). Read-only. */
export async function checkReferences(
  tx: Tx,
  actor: Actor,
  fields: EventWriteFields,
  target: { language: Language; selfId?: number | undefined },
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
  const select = { id: true, language: true, translationGroup: true } as const;
  return {
    venues:
      fields.venue &&
      (await planLinks(
        fields.venue,
        "venue",
        (where) => tx.venue.findMany({ where: { ...where, ...live }, select }),
        target.language,
      )),
    organizers:
      fields.organizer &&
      (await planLinks(
        fields.organizer,
        "organizer",
        (where) => tx.organizer.findMany({ where: { ...where, ...live }, select }),
        target.language,
      )),
    translation:
      fields.translation_of === undefined
        ? undefined
        : await planTranslation(tx, actor, fields.translation_of, target.language, target.selfId),
  };
}

/** Writing as another author needs the right to edit others' events. */
export function requireAuthorChoice(
  actor: Actor,
  author: number | undefined,
  current: number | null | undefined,
): void {
  if (author === undefined || author === current || (actor.kind === "user" && author === actor.id)) return;
  if (!can(actor, "edit_others_posts")) throw forbidden(actor.kind === "anonymous");
}

/** The link rows and foreign keys a write sets; fields not sent are absent. Creates what must be created. */
export async function writeLinks(tx: Tx, scope: Scope, fields: EventWriteFields, checked: CheckedReferences) {
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
export function replacing<T>(links: { create: T[] } | undefined) {
  return links && { deleteMany: {}, create: links.create };
}

/**
 * The first free slug for `wanted` among the events of the language: a few lookups of growing batches of
 * candidates (`-2`, `-3`, …) rather than one per candidate, so that the hundredth event of a title stays cheap.
 */
export async function freeEventSlug(tx: Tx, language: string, wanted: string, selfId?: number): Promise<string> {
  const base = slugify(wanted);
  const [slug = base] = await uniqueSlugs([base], async (candidates) => {
    const rows = await tx.event.findMany({
      where: { language, slug: { in: candidates }, NOT: { id: selfId } },
      select: { slug: true },
    });
    return rows.map((row) => row.slug);
  });
  return slug;
}

export async function joinGroup(tx: Tx, plan: TranslationPlan | undefined): Promise<void> {
  if (plan?.startsGroupOf !== undefined) {
    await tx.event.update({ where: { id: plan.startsGroupOf }, data: { translationGroup: plan.group } });
  }
}

/**
 * The columns of a new event but its slug, links and translation group: shared with the bulk path, so that both
 * store the same values for the same body.
 */
export function newEventColumns(scope: Scope, body: EventCreateBody, schedule: EventSchedule, now: Date) {
  const { actor, site } = scope;
  const stamp = stampsAt(now, site.timezone);
  const posted = postDateOf(body, schedule.timezone, site.timezone, now) ?? {
    postDate: stamp.local,
    postDateUtc: stamp.utc,
  };
  return {
    ...scalarChanges(body),
    ...schedule,
    ...posted,
    title: body.title,
    status: scaleBackStatus(actor, body.status),
    authorId: body.author ?? (actor.kind === "user" ? actor.id : null),
    language: scope.language,
    modified: stamp.local,
    modifiedUtc: stamp.utc,
    searchText: eventSearchText({
      title: body.title,
      excerpt: body.excerpt ?? "",
      description: body.description ?? "",
    }),
  };
}

/** What the change feed records of a written event. */
export const EVENT_CHANGE_FIELDS = { id: true, language: true, status: true, password: true, authorId: true } as const;

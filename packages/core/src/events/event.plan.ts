import { can, type OwnedPost, scaleBackStatus } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import { canRead, readableWhere } from "../auth/visibility.ts";
import type { Tx } from "../db/db.ts";
import { domainError, forbidden, invalidParam } from "../errors.ts";
import type { OrganizerCreateBody } from "../organizers/organizer.schemas.ts";
import { createOrganizerInTx } from "../organizers/organizer.service.ts";
import type { Scope } from "../scope.ts";
import { stampsAt } from "../shared/dates.ts";
import { resolveImage } from "../shared/images.ts";
import type { Language } from "../shared/language.ts";
import { idsInLanguage, type Translatable } from "../shared/translations.ts";
import { resolveTermIdsForWrite } from "../terms/term.lookup.ts";
import type { VenueCreateBody } from "../venues/venue.schemas.ts";
import { createVenueInTx } from "../venues/venue.service.ts";
import type { EventSchedule } from "./event.dates.ts";
import { unknownLinkedIds } from "./event.errors.ts";
import type { EventCreateBody, EventWriteFields, LinkedIdRef } from "./event.schemas.ts";
import { eventSearchText } from "./event.search.ts";
import { planTranslations, type TranslationPlan } from "./event.translations.ts";
import { postDateOf, scalarChanges, uniqueIds } from "./event.write.ts";

/** What `POST /events` and the updates of an event check and plan before they write: links, translation, slug, columns. */

type LinkRef<T> = number | LinkedIdRef | T;

/** A link of an event write: an existing record, or one to create from inline fields. */
type PlannedLink<T> = { id: number } | { inline: T };

/** A query for the venues or organizers a write may link (see `linkableWhere`), with their translation groups. */
type FindLinkable = (
  where: { id: { in: number[] } } | { translationGroup: { in: string[] }; language: string },
) => Promise<Translatable[]>;

/**
 * Checks the ids of the `venue`/`organizer` lists of one or many writes in one lookup: an unknown bare id is a 400
 * naming the parameter, an unknown `{id}` is `invalid-linked-post-id` (docs/behaviour.md, "Creating events").
 * A record that `findLinkable` does not find (trashed, or one the writer may not read) is unknown. A record of
 * another language than the event's is replaced by its translation in the event's language when it has one. With
 * `inline: "refuse"`, an inline record is a 400 naming the parameter.
 */
async function planLinks<T extends object>(
  lists: ReadonlyArray<ReadonlyArray<LinkRef<T>> | undefined>,
  param: "venue" | "organizer",
  findLinkable: FindLinkable,
  options: { language: string; inline: InlineLinks },
): Promise<Array<Array<PlannedLink<T>> | undefined>> {
  const refs = lists.flatMap((list) => list ?? []);
  if (options.inline === "refuse" && refs.some((ref) => typeof ref === "object" && !("id" in ref))) {
    throw invalidParam(param, `Bulk creation links existing ${param}s by id only.`);
  }
  const bare = refs.filter((ref): ref is number => typeof ref === "number");
  const referenced = refs.flatMap((ref) => (typeof ref === "object" && "id" in ref ? [ref.id] : []));
  const ids = uniqueIds([...bare, ...referenced]);
  const rows = ids.length ? await findLinkable({ id: { in: ids } }) : [];
  const found = new Set(rows.map((row) => row.id));
  const unknown = bare.filter((id) => !found.has(id));
  if (unknown.length) throw unknownLinkedIds(param, uniqueIds(unknown));
  if (referenced.some((id) => !found.has(id))) throw domainError("invalid-linked-post-id");
  const idFor = await idsInLanguage(rows, options.language, (groups) =>
    findLinkable({ translationGroup: { in: groups }, language: options.language }),
  );
  const inLanguage = (id: number) => ({ id: idFor.get(id) ?? id });
  return lists.map((list) =>
    list?.map((ref) => {
      if (typeof ref === "number") return inLanguage(ref);
      return "id" in ref ? inLanguage(ref.id) : { inline: ref };
    }),
  );
}

/** The linked ids, creating the inline records one after the other (so duplicates within a write are found). */
async function linkIds<T>(planned: ReadonlyArray<PlannedLink<T>>, create: (inline: T) => Promise<number>) {
  const ids: number[] = [];
  for (const link of planned) ids.push("inline" in link ? await create(link.inline) : link.id);
  return uniqueIds(ids);
}

/** The ids of planned links that are all existing records (the bulk path refuses inline ones while planning). */
export function existingLinkIds<T>(planned: ReadonlyArray<PlannedLink<T>> | undefined): number[] | undefined {
  return planned && uniqueIds(planned.flatMap((link) => ("id" in link ? [link.id] : [])));
}

export interface CheckedReferences {
  venues?: Array<PlannedLink<VenueCreateBody>> | undefined;
  organizers?: Array<PlannedLink<OrganizerCreateBody>> | undefined;
  translation?: TranslationPlan | undefined;
}

/** Whether inline venues and organizers are records to create (`POST /events`) or a 400 (the bulk path). */
type InlineLinks = "create" | "refuse";

/**
 * The venues and organizers a write may link: those not in the trash that the writer may read (`canRead`), so that
 * a link never shows the writer, nor later the event's readers, a record it could not read.
 */
function linkableWhere(actor: Actor) {
  const readable = readableWhere(actor);
  return { status: { not: "trash" }, ...(readable && { AND: [readable] }) };
}

interface ReferenceTarget {
  language: Language;
  selfId?: number | undefined;
  inline?: InlineLinks;
}

/** Validation of every reference a write makes, before any permission check (docs/behaviour.md, "Validation before permission"). Read-only. */
export async function checkReferences(
  tx: Tx,
  actor: Actor,
  fields: EventWriteFields,
  target: ReferenceTarget,
): Promise<CheckedReferences> {
  const [checked = {}] = await checkReferencesOfMany(tx, actor, [fields], target);
  return target.selfId === undefined ? checked : keepUnreadableLinks(tx, actor, target.selfId, checked);
}

/**
 * An update's venue or organizer list replaces only the links its writer may read: links to records the writer may
 * not read (and so could neither see nor name) stay, after the new ones (docs/behaviour.md, "Updating").
 */
async function keepUnreadableLinks(
  tx: Tx,
  actor: Actor,
  eventId: number,
  checked: CheckedReferences,
): Promise<CheckedReferences> {
  const current = { where: { eventId }, orderBy: { position: "asc" } } as const;
  const post = { select: { status: true, authorId: true } } as const;
  const unreadable = (linked: OwnedPost) => !canRead(actor, linked);
  return {
    ...checked,
    venues: checked.venues && [
      ...checked.venues,
      ...(await tx.eventVenue.findMany({ ...current, select: { venueId: true, venue: post } }))
        .filter((link) => unreadable(link.venue))
        .map((link) => ({ id: link.venueId })),
    ],
    organizers: checked.organizers && [
      ...checked.organizers,
      ...(await tx.eventOrganizer.findMany({ ...current, select: { organizerId: true, organizer: post } }))
        .filter((link) => unreadable(link.organizer))
        .map((link) => ({ id: link.organizerId })),
    ],
  };
}

/**
 * `checkReferences` of many writes in one language, with one lookup of each kind for the whole batch; the first
 * failing check (authors, then parents, venues, organizers, translations) fails the batch. Read-only.
 */
export async function checkReferencesOfMany(
  tx: Tx,
  actor: Actor,
  writes: readonly EventWriteFields[],
  target: ReferenceTarget,
): Promise<CheckedReferences[]> {
  await requireAuthorsAndParents(tx, writes, target.selfId);
  const linkable = linkableWhere(actor);
  const select = { id: true, language: true, translationGroup: true } as const;
  const options = { language: target.language, inline: target.inline ?? "create" };
  const venues = writes.some((fields) => fields.venue)
    ? await planLinks(
        writes.map((fields) => fields.venue),
        "venue",
        (where) => tx.venue.findMany({ where: { ...where, ...linkable }, select }),
        options,
      )
    : [];
  const organizers = writes.some((fields) => fields.organizer)
    ? await planLinks(
        writes.map((fields) => fields.organizer),
        "organizer",
        (where) => tx.organizer.findMany({ where: { ...where, ...linkable }, select }),
        options,
      )
    : [];
  const translations = await planTranslations(
    tx,
    actor,
    writes.map((fields) => fields.translation_of),
    target.language,
    target.selfId,
  );
  return writes.map((_fields, index) => ({
    venues: venues[index],
    organizers: organizers[index],
    translation: translations[index],
  }));
}

/** `author` must name an existing user and `post_parent` another existing event. */
async function requireAuthorsAndParents(
  tx: Tx,
  writes: readonly EventWriteFields[],
  selfId: number | undefined,
): Promise<void> {
  const authors = uniqueIds(writes.flatMap((fields) => (fields.author === undefined ? [] : [fields.author])));
  if (authors.length) {
    const users = await tx.user.findMany({ where: { id: { in: authors } }, select: { id: true } });
    const unknown = authors.find((id) => !users.some((user) => user.id === id));
    if (unknown !== undefined) throw invalidParam("author", `No user with the id ${unknown}.`);
  }
  const parents = uniqueIds(writes.flatMap((fields) => (fields.post_parent ? [fields.post_parent] : [])));
  if (parents.length) {
    const rows = await tx.event.findMany({ where: { id: { in: parents } }, select: { id: true } });
    const found = new Set(rows.map((row) => row.id));
    const unknown = parents.find((id) => !found.has(id) || id === selfId);
    if (unknown !== undefined) throw invalidParam("post_parent", `No other event with the id ${unknown}.`);
  }
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
    parentId: parentIdOf(fields),
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

/** The parent a write sets: `0` clears it; absent when not sent. */
export function parentIdOf(fields: EventWriteFields): number | null | undefined {
  return fields.post_parent === undefined ? undefined : fields.post_parent || null;
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

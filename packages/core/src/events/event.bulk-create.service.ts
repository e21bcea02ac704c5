import { randomUUID } from "node:crypto";
import { canRead, requireCapability } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import { runWrite } from "../db/write.ts";
import { domainError, invalidParam, parseOrThrow } from "../errors.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { Scope } from "../scope.ts";
import { insertRows, insertRowsReturning } from "../shared/bulk-insert.ts";
import { resolveImage } from "../shared/images.ts";
import { slugify, uniqueSlugs } from "../shared/slug.ts";
import { idsInLanguage, type Translatable } from "../shared/translations.ts";
import { addNewEventsToTermCounts } from "../terms/term.counts.ts";
import { resolveTermIdsForWrite } from "../terms/term.lookup.ts";
import type { Taxonomy } from "../terms/term.schemas.ts";
import { termStore } from "../terms/term.store.ts";
import { scheduleOf } from "./event.dates.ts";
import { unknownLinkedIds } from "./event.errors.ts";
import { newEventColumns, requireAuthorChoice } from "./event.plan.ts";
import { type EventCreateBody, eventCreateBody } from "./event.schemas.ts";
import { namesLinkedRecords, uniqueIds } from "./event.write.ts";

/** A batch of thousands of events takes seconds, on a loaded PostgreSQL maybe a minute. */
const BULK_WRITE = { timeout: 300_000 };

/**
 * Many events created in one transaction, for seeding large calendars: each input is validated by the schema of
 * `POST /events` and stored with the columns `createEvent` stores, but the lookups of the whole batch (authors,
 * parents, linked records, terms, translations, free slugs) are made together and the rows are inserted in a
 * few statements. Venues and organizers are linked by id only (inline records are a 400). Returns the new ids
 * in input order; nothing is presented.
 */
export async function createEventsInBulk(scope: Scope, inputs: readonly unknown[]): Promise<number[]> {
  const now = new Date();
  const bodies = inputs.map((input) => parseOrThrow(eventCreateBody, input));
  const columns = bodies.map((body) => ({
    ...newEventColumns(scope, body, scheduleOf(body, undefined, scope.site.timezone, now), now),
    parentId: body.post_parent === undefined ? undefined : body.post_parent || null,
  }));
  return runWrite(
    scope.db,
    async (tx) => {
      await requireKnown(tx, bodies);
      const venues = await linkedIdsOf(bodies, "venue", (where) => tx.venue.findMany(linkable(where)), scope.language);
      const organizers = await linkedIdsOf(
        bodies,
        "organizer",
        (where) => tx.organizer.findMany(linkable(where)),
        scope.language,
      );
      const groups = await translationGroupsOf(tx, scope.actor, bodies, scope.language);
      requireCapability(scope.actor, "create_posts");
      for (const body of bodies) requireAuthorChoice(scope.actor, body.author, undefined);
      const categories = await termIdsOf(tx, scope, "category", bodies);
      const tags = await termIdsOf(tx, scope, "tag", bodies);
      const images = await imageIdsOf(tx, bodies);
      const slugs = await uniqueSlugs(
        bodies.map((body) => slugify(body.slug ?? body.title)),
        (candidates) => takenSlugs(tx, scope.language, candidates),
      );
      const ids = await insertEvents(
        tx,
        columns.map((column, index) => ({
          ...column,
          slug: slugs[index] ?? "",
          translationGroup: groups[index],
          imageId: images[index],
        })),
      );
      const links = linkRowsOf(ids, { venues, organizers, categories, tags });
      await insertRows(tx, "EventVenue", links.venues);
      await insertRows(tx, "EventOrganizer", links.organizers);
      await insertRows(tx, "EventCategory", links.categories);
      await insertRows(tx, "EventTag", links.tags);
      await addNewEventsToTermCounts(
        tx,
        columns.map((column, index) => ({
          language: column.language,
          status: column.status,
          categoryIds: categories[index] ?? [],
          tagIds: tags[index] ?? [],
        })),
      );
      await recordChanges(
        tx,
        ids.map((id, index) => ({
          type: "event",
          id,
          action: "created",
          language: columns[index]?.language ?? scope.language,
          status: columns[index]?.status ?? "draft",
          password: bodies[index]?.password,
          authorId: columns[index]?.authorId,
        })),
      );
      return ids;
    },
    { ...BULK_WRITE, serializable: bodies.some(namesLinkedRecords) },
  );
}

const VALUES_PER_LOOKUP = 10_000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  );
}

/** `author` and `post_parent` must name an existing user and event (the messages of `createEvent`). */
async function requireKnown(tx: Tx, bodies: readonly EventCreateBody[]): Promise<void> {
  const authors = uniqueIds(bodies.flatMap((body) => (body.author === undefined ? [] : [body.author])));
  const users = new Set((await tx.user.findMany({ where: { id: { in: authors } }, select: { id: true } })).map(idOf));
  const unknownAuthor = authors.find((id) => !users.has(id));
  if (unknownAuthor !== undefined) throw invalidParam("author", `No user with the id ${unknownAuthor}.`);
  const parents = uniqueIds(bodies.flatMap((body) => (body.post_parent ? [body.post_parent] : [])));
  const events = new Set((await tx.event.findMany({ where: { id: { in: parents } }, select: { id: true } })).map(idOf));
  const unknownParent = parents.find((id) => !events.has(id));
  if (unknownParent !== undefined) throw invalidParam("post_parent", `No other event with the id ${unknownParent}.`);
}

function idOf(row: { id: number }): number {
  return row.id;
}

type LinkableWhere = { id: { in: number[] } } | { translationGroup: { in: string[] }; language: string };

function linkable(where: LinkableWhere) {
  return {
    where: { ...where, status: { not: "trash" } },
    select: { id: true, language: true, translationGroup: true },
  } as const;
}

/**
 * The venue or organizer ids of each body, as `createEvent` links them: live records only (an unknown bare id is
 * a 400 naming the parameter, an unknown `{id}` is `invalid-linked-post-id`), a record of another language
 * replaced by its translation in the event's language, duplicates removed.
 */
async function linkedIdsOf(
  bodies: readonly EventCreateBody[],
  param: "venue" | "organizer",
  findLinkable: (where: LinkableWhere) => Promise<Translatable[]>,
  language: string,
): Promise<Array<number[] | undefined>> {
  const refsOf = (body: EventCreateBody) => body[param]?.map((ref) => idOfRef(ref, param));
  const refs = bodies.map(refsOf);
  const all = refs.flatMap((list) => list ?? []);
  const ids = uniqueIds(all.map((ref) => ref.id));
  const rows = ids.length ? await findLinkable({ id: { in: ids } }) : [];
  const found = new Set(rows.map(idOf));
  const unknown = all.filter((ref) => ref.bare && !found.has(ref.id)).map((ref) => ref.id);
  if (unknown.length) throw unknownLinkedIds(param, uniqueIds(unknown));
  if (all.some((ref) => !found.has(ref.id))) throw domainError("invalid-linked-post-id");
  const idFor = await idsInLanguage(rows, language, (groups) =>
    findLinkable({ translationGroup: { in: groups }, language }),
  );
  return refs.map((list) => list && uniqueIds(list.map((ref) => idFor.get(ref.id) ?? ref.id)));
}

function idOfRef(ref: number | object, param: "venue" | "organizer"): { id: number; bare: boolean } {
  if (typeof ref === "number") return { id: ref, bare: true };
  if ("id" in ref && typeof ref.id === "number") return { id: ref.id, bare: false };
  throw invalidParam(param, `Bulk creation links existing ${param}s by id only.`);
}

/**
 * The translation group of each body with `translation_of` (the rules of `createEvent`: another live event the
 * actor can see, whose group has no event in `language` yet, counting the earlier bodies of the batch). Events
 * translated for the first time start their group here.
 */
async function translationGroupsOf(
  tx: Tx,
  actor: Actor,
  bodies: readonly EventCreateBody[],
  language: string,
): Promise<Array<string | undefined>> {
  const targetIds = uniqueIds(bodies.flatMap((body) => (body.translation_of ? [body.translation_of] : [])));
  if (!targetIds.length) return bodies.map(() => undefined);
  const targets = await tx.event.findMany({
    where: { id: { in: targetIds } },
    select: { id: true, language: true, translationGroup: true, status: true, authorId: true },
  });
  const targetOf = new Map(targets.map((target) => [target.id, target]));
  const existing = uniqueStrings(
    targets.flatMap((target) => (target.translationGroup ? [target.translationGroup] : [])),
  );
  const members = existing.length
    ? await tx.event.findMany({
        where: { translationGroup: { in: existing } },
        select: { language: true, translationGroup: true },
      })
    : [];
  const languagesOf = new Map<string, Set<string>>();
  for (const member of members) {
    if (member.translationGroup) addTo(languagesOf, member.translationGroup, member.language);
  }
  const started = new Map<number, string>();
  const groups = bodies.map((body) => {
    if (body.translation_of === undefined) return undefined;
    const targetId = body.translation_of;
    const target = targetOf.get(targetId);
    if (!target || target.status === "trash" || !canRead(actor, target)) {
      throw invalidParam("translation_of", `No other event with the id ${targetId}.`);
    }
    const group =
      target.translationGroup ?? started.get(targetId) ?? startGroup(started, targetId, languagesOf, target);
    if (languagesOf.get(group)?.has(language)) {
      throw invalidParam("translation_of", `Event ${targetId} already has a translation in "${language}".`);
    }
    addTo(languagesOf, group, language);
    return group;
  });
  for (const [id, group] of started) await tx.event.update({ where: { id }, data: { translationGroup: group } });
  return groups;
}

function startGroup(
  started: Map<number, string>,
  targetId: number,
  languagesOf: Map<string, Set<string>>,
  target: { language: string },
): string {
  const group = randomUUID();
  started.set(targetId, group);
  addTo(languagesOf, group, target.language);
  return group;
}

function addTo(sets: Map<string, Set<string>>, key: string, value: string): void {
  const set = sets.get(key) ?? new Set<string>();
  set.add(value);
  sets.set(key, set);
}

function uniqueStrings(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * The term ids of each body, resolved as `createEvent` resolves them: ids (all in one lookup) of an existing term,
 * replaced by its translation in the event's language when it has one, unknown ones skipped; names (each once)
 * found or created by `resolveTermIdsForWrite`.
 */
async function termIdsOf(
  tx: Tx,
  scope: Scope,
  taxonomy: Taxonomy,
  bodies: readonly EventCreateBody[],
): Promise<Array<number[] | undefined>> {
  const field = taxonomy === "category" ? "categories" : "tags";
  const refs = [...new Set(bodies.flatMap((body) => body[field] ?? []))];
  const store = termStore(tx, taxonomy);
  const ids = refs.filter((ref): ref is number => typeof ref === "number");
  const rows = ids.length ? await store.find({ id: { in: ids } }) : [];
  const resolved = new Map<number | string, number[]>();
  const idFor = await idsInLanguage(rows, scope.language, (groups) =>
    store.find({ translationGroup: { in: groups }, language: scope.language }),
  );
  for (const [id, inLanguage] of idFor) resolved.set(id, [inLanguage]);
  for (const name of refs.filter((ref): ref is string => typeof ref === "string")) {
    resolved.set(name, await resolveTermIdsForWrite(tx, scope, taxonomy, [name]));
  }
  return bodies.map((body) => {
    const list = body[field];
    return list && uniqueIds(list.flatMap((ref) => resolved.get(ref) ?? []));
  });
}

/** The image id of each body (undefined: none sent), each distinct value resolved once. */
async function imageIdsOf(tx: Tx, bodies: readonly EventCreateBody[]): Promise<Array<number | null | undefined>> {
  const resolved = new Map<string, number | null>();
  const ids: Array<number | null | undefined> = [];
  for (const body of bodies) {
    if (body.image === undefined) {
      ids.push(undefined);
      continue;
    }
    const key = JSON.stringify(body.image);
    const id = resolved.has(key) ? resolved.get(key) : await resolveImage(tx, body.image);
    resolved.set(key, id ?? null);
    ids.push(id ?? null);
  }
  return ids;
}

async function takenSlugs(tx: Tx, language: string, candidates: string[]): Promise<string[]> {
  const taken: string[] = [];
  for (const part of chunks(candidates, VALUES_PER_LOOKUP)) {
    const rows = await tx.event.findMany({ where: { language, slug: { in: part } }, select: { slug: true } });
    taken.push(...rows.map((row) => row.slug));
  }
  return taken;
}

/** Inserts the rows and returns their ids in the same order (found by slug: unique in the batch's language). */
async function insertEvents(tx: Tx, rows: Prisma.EventCreateManyInput[]): Promise<number[]> {
  const created = await insertRowsReturning<{ id: number | bigint; slug: string }>(tx, "Event", rows, ["id", "slug"]);
  const idOfSlug = new Map(created.map((row) => [row.slug, Number(row.id)]));
  return rows.map((row) => {
    const id = idOfSlug.get(row.slug);
    if (id === undefined) throw new Error(`The insert returned no row for the slug "${row.slug}".`);
    return id;
  });
}

interface LinkIds {
  venues: Array<number[] | undefined>;
  organizers: Array<number[] | undefined>;
  categories: Array<number[] | undefined>;
  tags: Array<number[] | undefined>;
}

interface LinkRows {
  venues: Array<{ eventId: number; venueId: number; position: number }>;
  organizers: Array<{ eventId: number; organizerId: number; position: number }>;
  categories: Array<{ eventId: number; categoryId: number }>;
  tags: Array<{ eventId: number; tagId: number }>;
}

/** The link rows of the new events, venues and organizers in their positions. */
function linkRowsOf(eventIds: readonly number[], ids: LinkIds): LinkRows {
  const rows: LinkRows = { venues: [], organizers: [], categories: [], tags: [] };
  eventIds.forEach((eventId, index) => {
    for (const [position, venueId] of (ids.venues[index] ?? []).entries()) {
      rows.venues.push({ eventId, venueId, position });
    }
    for (const [position, organizerId] of (ids.organizers[index] ?? []).entries()) {
      rows.organizers.push({ eventId, organizerId, position });
    }
    for (const categoryId of ids.categories[index] ?? []) rows.categories.push({ eventId, categoryId });
    for (const tagId of ids.tags[index] ?? []) rows.tags.push({ eventId, tagId });
  });
  return rows;
}

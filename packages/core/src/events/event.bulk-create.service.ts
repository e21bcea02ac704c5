import { requireCapability } from "../auth/capabilities.ts";
import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import { runWrite } from "../db/write.ts";
import { invalidParam, parseOrThrow } from "../errors.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { Scope } from "../scope.ts";
import { insertRows, insertRowsReturning } from "../shared/bulk-insert.ts";
import { resolveImage } from "../shared/images.ts";
import { addNewEventsToTermCounts } from "../terms/term.counts.ts";
import { resolveTermIdListsForWrite } from "../terms/term.lookup.ts";
import { scheduleOf } from "./event.dates.ts";
import {
  type CheckedReferences,
  checkReferencesOfMany,
  existingLinkIds,
  newEventColumns,
  parentIdOf,
  requireAuthorChoice,
} from "./event.plan.ts";
import { type EventCreateBody, eventCreateBody } from "./event.schemas.ts";
import { freeEventSlugs } from "./event.slugs.ts";
import { joinGroup } from "./event.translations.ts";
import { namesLinkedRecords } from "./event.write.ts";

/** A batch of thousands of events takes seconds, on a loaded PostgreSQL maybe a minute. */
const BULK_WRITE = { timeout: 300_000 };

/**
 * Many events created in one transaction, for seeding large calendars: each input is validated by the schema of
 * `POST /events` and planned by the functions of `createEvent` (`event.plan.ts`: references, links, translation
 * groups, terms, free slugs, columns), each called once for the whole batch; only the writes differ: the rows
 * are inserted in a few statements. Venues and organizers are linked by id only (inline records are a 400).
 * Returns the new ids in input order; nothing is presented.
 */
export async function createEventsInBulk(scope: Scope, inputs: readonly unknown[]): Promise<number[]> {
  const now = new Date();
  const bodies = inputs.map((input) => parseOrThrow(eventCreateBody, input));
  if (bodies.some((body) => body.recurrence)) {
    throw invalidParam("recurrence", "Bulk creation makes single events; create a series with POST /events.");
  }
  const columns = bodies.map((body) => ({
    ...newEventColumns(scope, body, scheduleOf(body, undefined, scope.site.timezone, now), now),
    parentId: parentIdOf(body),
  }));
  return runWrite(
    scope.db,
    async (tx) => {
      const checked = await checkReferencesOfMany(tx, scope.actor, bodies, {
        language: scope.language,
        inline: "refuse",
      });
      requireCapability(scope.actor, "create_posts");
      for (const body of bodies) requireAuthorChoice(scope.actor, body.author, undefined);
      for (const plan of checked) await joinGroup(tx, plan.translation);
      const links = await linkIdsOf(tx, scope, bodies, checked);
      const images = await imageIdsOf(tx, bodies);
      const slugs = await freeEventSlugs(
        tx,
        scope.language,
        bodies.map((body) => body.slug ?? body.title),
      );
      const ids = await insertEvents(
        tx,
        columns.map((column, index) => ({
          ...column,
          slug: slugs[index] ?? "",
          translationGroup: checked[index]?.translation?.group,
          imageId: images[index],
        })),
      );
      await insertLinks(tx, linkRowsOf(ids, links));
      await addNewEventsToTermCounts(
        tx,
        columns.map((column, index) => ({
          language: column.language,
          status: column.status,
          password: column.password ?? "",
          categoryIds: links.categories[index] ?? [],
          tagIds: links.tags[index] ?? [],
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

/** The linked ids of each body: the planned venues and organizers, the terms resolved as `createEvent` resolves them. */
async function linkIdsOf(
  tx: Tx,
  scope: Scope,
  bodies: readonly EventCreateBody[],
  checked: readonly CheckedReferences[],
): Promise<LinkIds> {
  return {
    venues: checked.map((plan) => existingLinkIds(plan.venues)),
    organizers: checked.map((plan) => existingLinkIds(plan.organizers)),
    categories: await resolveTermIdListsForWrite(
      tx,
      scope,
      "category",
      bodies.map((body) => body.categories),
    ),
    tags: await resolveTermIdListsForWrite(
      tx,
      scope,
      "tag",
      bodies.map((body) => body.tags),
    ),
  };
}

async function insertLinks(tx: Tx, rows: LinkRows): Promise<void> {
  await insertRows(tx, "EventVenue", rows.venues);
  await insertRows(tx, "EventOrganizer", rows.organizers);
  await insertRows(tx, "EventCategory", rows.categories);
  await insertRows(tx, "EventTag", rows.tags);
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

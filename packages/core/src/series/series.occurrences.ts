import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import { freeEventSlugs } from "../events/event.slugs.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import { inBatches, insertRows, insertRowsReturning } from "../shared/bulk-insert.ts";
import { addNewEventsToTermCounts } from "../terms/term.counts.ts";
import { type OccurrenceStart, wallTimeInstant, wallTimePlus } from "./series.expand.ts";
import { pairOccurrences } from "./series.translations.ts";

/**
 * New occurrences of a series (docs/behaviour.md, "Recurring series"): ordinary events copied from a template
 * occurrence (its columns and links, but its own start, end, slug and original start), inserted in a few
 * statements, counted in the terms and recorded in the change feed, in the caller's transaction.
 */

/** What a new occurrence is copied from, with its links in their order. */
export const TEMPLATE_READ = {
  include: {
    venues: { select: { venueId: true }, orderBy: { position: "asc" } },
    organizers: { select: { organizerId: true }, orderBy: { position: "asc" } },
    categories: { select: { categoryId: true } },
    tags: { select: { tagId: true } },
  },
} as const satisfies Prisma.EventDefaultArgs;

export type TemplateEvent = Prisma.EventGetPayload<typeof TEMPLATE_READ>;

export interface SeriesOfOccurrences {
  id: number;
  timezone: string;
  durationSeconds: number;
  firstEventId: number | null;
  translationGroup: string | null;
}

/** The slug of an occurrence: the series' slug with its date (and time when a day has several). */
function occurrenceSlug(baseSlug: string, start: OccurrenceStart, hourly: boolean): string {
  const date = start.local.slice(0, 10);
  return hourly ? `${baseSlug}-${date}-${start.local.slice(11, 16).replace(":", "")}` : `${baseSlug}-${date}`;
}

/** The slug an occurrence's is made from: the template's without the date an occurrence slug ends with. */
export function seriesBaseSlug(template: Pick<TemplateEvent, "slug" | "originalStartLocal">): string {
  const date = template.originalStartLocal?.slice(0, 10);
  return date && template.slug.includes(`-${date}`)
    ? template.slug.slice(0, template.slug.indexOf(`-${date}`))
    : template.slug;
}

interface OccurrenceOptions {
  hourly: boolean;
  baseSlug: string;
}

/**
 * Inserts one occurrence per start, copied from `template`; returns their ids in the order of `starts`. In batches
 * that give the event loop back between them (`inBatches`): each batch's events and links are a few multi-row
 * statements; the term counts and the changes (one version for all) follow.
 */
export async function insertOccurrences(
  tx: Tx,
  series: SeriesOfOccurrences,
  template: TemplateEvent,
  starts: readonly OccurrenceStart[],
  options: OccurrenceOptions,
): Promise<number[]> {
  if (starts.length === 0) return [];
  const ids: number[] = [];
  await inBatches(starts, async (batch) => {
    ids.push(...(await insertBatch(tx, series, template, batch, options)));
  });
  const { categories, tags } = template;
  const counted = {
    language: template.language,
    status: template.status,
    password: template.password,
    categoryIds: categories.map((link) => link.categoryId),
    tagIds: tags.map((link) => link.tagId),
  };
  await addNewEventsToTermCounts(
    tx,
    ids.map(() => counted),
  );
  await recordChanges(
    tx,
    ids.map((id) => ({
      type: "event",
      id,
      action: "created",
      language: template.language,
      status: template.status,
      password: template.password,
      authorId: template.authorId,
    })),
  );
  await pairOccurrences(tx, series.id);
  return ids;
}

async function insertBatch(
  tx: Tx,
  series: SeriesOfOccurrences,
  template: TemplateEvent,
  starts: readonly OccurrenceStart[],
  options: OccurrenceOptions,
): Promise<number[]> {
  const {
    id: _id,
    venues,
    organizers,
    categories,
    tags,
    slug: _slug,
    translationGroup: _group,
    icalUid: _uid,
    icalRecurrenceId: _recurrenceId,
    icalSequence: _icalSequence,
    icalModifiedUtc: _icalModified,
    ...columns
  } = template;
  const slugs = await freeEventSlugs(
    tx,
    template.language,
    starts.map((start) => occurrenceSlug(options.baseSlug, start, options.hourly)),
  );
  const rows = starts.map((start, index) => {
    const endLocal = wallTimePlus(start.local, series.durationSeconds);
    return {
      ...columns,
      slug: slugs[index] ?? "",
      startLocal: start.local,
      startUtc: start.utc,
      endLocal,
      endUtc: wallTimeInstant(endLocal, series.timezone),
      timezone: series.timezone,
      seriesId: series.id,
      parentId: series.firstEventId,
      originalStartLocal: start.local,
      originalStartUtc: start.utc,
      overrides: "[]",
      sequence: 0,
    } satisfies Prisma.EventCreateManyInput;
  });
  const created = await insertRowsReturning<{ id: number | bigint; slug: string }>(tx, "Event", rows, ["id", "slug"]);
  const idOfSlug = new Map(created.map((row) => [row.slug, Number(row.id)]));
  const ids = rows.map((row) => idOfSlug.get(row.slug) ?? Number.NaN);
  await insertRows(
    tx,
    "EventVenue",
    ids.flatMap((eventId) => venues.map((link, position) => ({ eventId, venueId: link.venueId, position }))),
  );
  await insertRows(
    tx,
    "EventOrganizer",
    ids.flatMap((eventId) =>
      organizers.map((link, position) => ({ eventId, organizerId: link.organizerId, position })),
    ),
  );
  await insertRows(
    tx,
    "EventCategory",
    ids.flatMap((eventId) => categories.map((link) => ({ eventId, categoryId: link.categoryId }))),
  );
  await insertRows(
    tx,
    "EventTag",
    ids.flatMap((eventId) => tags.map((link) => ({ eventId, tagId: link.tagId }))),
  );
  return ids;
}

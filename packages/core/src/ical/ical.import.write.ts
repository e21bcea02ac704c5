import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import type { EventSchedule } from "../events/event.dates.ts";
import { EVENT_CHANGE_FIELDS, newEventColumns } from "../events/event.plan.ts";
import type { EventCreateBody } from "../events/event.schemas.ts";
import { eventSearchText } from "../events/event.search.ts";
import { freeEventSlug } from "../events/event.slugs.ts";
import { scalarChanges } from "../events/event.write.ts";
import type { OrganizerCreateBody } from "../organizers/organizer.schemas.ts";
import { createOrganizerInTx } from "../organizers/organizer.service.ts";
import type { Scope } from "../scope.ts";
import { stampsAt } from "../shared/dates.ts";
import { countedLinksOf, EVENT_TERM_LINKS, moveTermCounts } from "../terms/term.counts.ts";
import { resolveTermIdsForWrite } from "../terms/term.lookup.ts";
import type { VenueCreateBody } from "../venues/venue.schemas.ts";
import { createVenueInTx } from "../venues/venue.service.ts";
import type { ImportResult } from "./ical.import.schemas.ts";
import type { PlannedSeries } from "./ical.import.series.ts";
import type { ImportedSeries } from "./ical.parse.ts";

/** How an imported series is written: its occurrences matched by RECURRENCE-ID to the events stored for its UID. */

interface Stored {
  id: number;
  icalRecurrenceId: string | null;
  icalSequence: number | null;
  icalModifiedUtc: Date | null;
  modifiedUtc: Date;
  sequence: number;
  status: string;
  password: string;
  language: string;
  categories: Array<{ categoryId: number }>;
  tags: Array<{ tagId: number }>;
}

/**
 * Is the file's version of a series newer than the one stored (higher SEQUENCE, else later LAST-MODIFIED)? The
 * stored SEQUENCE counts the updates made here too, and an event never imported is as recent as its last change:
 * our own feed, which writes both, is never newer than what it was read from.
 */
function isNewer(series: ImportedSeries, stored: Stored): boolean {
  const sequence = Math.max(stored.icalSequence ?? 0, stored.sequence);
  if (series.sequence !== sequence) return series.sequence > sequence;
  const modified = (stored.icalModifiedUtc ?? stored.modifiedUtc).getTime();
  return (series.lastModified?.getTime() ?? 0) > modified;
}

/** The links of a body: venue and organizer found or created by name (duplicate avoidance), categories by name. */
async function linksOf(tx: Tx, scope: Scope, body: EventCreateBody) {
  const [venue] = (body.venue ?? []) as VenueCreateBody[];
  const [organizer] = (body.organizer ?? []) as OrganizerCreateBody[];
  const venueId = venue ? await createVenueInTx(tx, scope, venue) : undefined;
  const organizerId = organizer ? await createOrganizerInTx(tx, scope, organizer) : undefined;
  const categoryIds = body.categories ? await resolveTermIdsForWrite(tx, scope, "category", body.categories) : [];
  return {
    venues: { create: venueId === undefined ? [] : [{ venueId, position: 0 }] },
    organizers: { create: organizerId === undefined ? [] : [{ organizerId, position: 0 }] },
    categories: { create: categoryIds.map((categoryId) => ({ categoryId })) },
    categoryIds,
  };
}

function sourceColumns(series: ImportedSeries, recurrenceId: string) {
  return {
    icalUid: series.uid,
    icalRecurrenceId: recurrenceId,
    icalSequence: series.sequence,
    icalModifiedUtc: series.lastModified,
  };
}

async function trash(tx: Tx, scope: Scope, stored: Stored): Promise<void> {
  const stamp = stampsAt(new Date(), scope.site.timezone);
  await tx.event.update({
    where: { id: stored.id },
    data: {
      status: "trash",
      translationGroup: null,
      modified: stamp.local,
      modifiedUtc: stamp.utc,
      sequence: { increment: 1 },
    },
  });
  await moveTermCounts(tx, countedLinksOf(stored), undefined);
}

/** Where a series is written, when, and the result it adds to. */
export interface SeriesWrite {
  tx: Tx;
  scope: Scope;
  now: Date;
  result: ImportResult;
}

/** One occurrence of a series in the file, as validated: the event body and its schedule. */
export interface PlannedOccurrence {
  series: ImportedSeries;
  recurrenceId: string;
  body: EventCreateBody;
  schedule: EventSchedule;
}

/** The events stored for a UID: those imported with it, or the event of ours it names (`ownId`). */
function storedOccurrences(tx: Tx, language: string, uid: string, ownId: number | undefined): Promise<Stored[]> {
  return tx.event.findMany({
    where: { language, OR: [{ icalUid: uid }, ...(ownId === undefined ? [] : [{ id: ownId, icalUid: null }])] },
    select: {
      id: true,
      icalRecurrenceId: true,
      icalSequence: true,
      icalModifiedUtc: true,
      modifiedUtc: true,
      sequence: true,
      status: true,
      password: true,
      language: true,
      ...EVENT_TERM_LINKS,
    },
    orderBy: { id: "asc" },
  });
}

/** Writes the file's version of an occurrence; its SEQUENCE grows past the stored one unless `sequence` is given. */
export async function updateOccurrence(
  { tx, scope, now }: SeriesWrite,
  planned: PlannedOccurrence,
  existing: Stored,
  sequence?: number,
) {
  const { series, body } = planned;
  const links = await linksOf(tx, scope, body);
  const stamp = stampsAt(now, scope.site.timezone);
  await tx.event.update({
    where: { id: existing.id },
    data: {
      ...scalarChanges(body),
      ...planned.schedule,
      title: body.title,
      description: body.description ?? "",
      website: body.website ?? "",
      venues: { deleteMany: {}, ...links.venues },
      organizers: { deleteMany: {}, ...links.organizers },
      categories: { deleteMany: {}, ...links.categories },
      modified: stamp.local,
      modifiedUtc: stamp.utc,
      searchText: eventSearchText({ title: body.title, excerpt: "", description: body.description ?? "" }),
      ...sourceColumns(series, planned.recurrenceId),
      // The file's SEQUENCE, unless updates here have already counted past it: subscribers must see it grow.
      sequence: sequence ?? Math.max(series.sequence, existing.sequence + 1),
    },
  });
  const before = countedLinksOf(existing);
  await moveTermCounts(tx, before, { ...before, categoryIds: links.categoryIds });
}

export async function createOccurrence(
  { tx, scope, now }: SeriesWrite,
  planned: PlannedOccurrence,
  parentId: number | null,
): Promise<number> {
  const { series, body } = planned;
  const links = await linksOf(tx, scope, body);
  const columns = newEventColumns(scope, body, planned.schedule, now);
  const created = await tx.event.create({
    data: {
      ...columns,
      venues: links.venues,
      organizers: links.organizers,
      categories: links.categories,
      slug: await freeEventSlug(tx, scope.language, body.title),
      parentId,
      ...sourceColumns(series, planned.recurrenceId),
      sequence: series.sequence,
    },
    select: { id: true },
  });
  await moveTermCounts(tx, undefined, {
    language: columns.language,
    status: columns.status,
    password: columns.password ?? "",
    categoryIds: links.categoryIds,
    tagIds: [],
  });
  return created.id;
}

/** Creates the occurrence, updates it when the file's version is newer, or leaves it; answers its id. */
async function writeOccurrence(
  write: SeriesWrite,
  planned: PlannedOccurrence,
  existing: Stored | undefined,
  parentId: number | null,
): Promise<number> {
  if (!existing) {
    const id = await createOccurrence(write, planned, parentId);
    write.result.created.push(id);
    return id;
  }
  if (isNewer(planned.series, existing)) {
    await updateOccurrence(write, planned, existing);
    write.result.updated.push(existing.id);
  } else {
    write.result.unchanged += 1;
  }
  return existing.id;
}

async function trashAll({ tx, scope, result }: SeriesWrite, rows: readonly Stored[]): Promise<void> {
  for (const row of rows) {
    await trash(tx, scope, row);
    result.updated.push(row.id);
  }
}

/** One VEVENT group of the file, validated: its occurrences' bodies and schedules, and the series it keeps. */
export interface ValidSeries {
  series: ImportedSeries;
  bodies: EventCreateBody[];
  schedules: EventSchedule[];
  /** Of a recurring master: the series to keep. */
  planned: PlannedSeries | undefined;
  /** Of a UID our own feeds gave an event (`event-<id>@<host>`): that event. */
  ownId: number | undefined;
}

/** The events a batch wrote as events (not as series, which record their own changes). */
export interface WrittenEvents {
  created: number[];
  updated: number[];
}

/** Records one change per event written: created, updated, or trashed. */
export async function recordWritten(tx: Tx, written: WrittenEvents): Promise<void> {
  const { created, updated } = written;
  if (!created.length && !updated.length) return;
  const rows = await tx.event.findMany({
    where: { id: { in: [...created, ...updated] } },
    select: EVENT_CHANGE_FIELDS,
  });
  const actionOf = (row: (typeof rows)[number]) =>
    created.includes(row.id) ? "created" : row.status === "trash" ? "trashed" : "updated";
  await recordChanges(
    tx,
    rows.map((row) => ({ type: "event" as const, action: actionOf(row), ...row })),
  );
}

/**
 * Writes the events of a VEVENT group kept as events (not as a series), matched by UID and RECURRENCE-ID: creates,
 * updates and trashes them to match the file; adds what it wrote to `written`.
 */
export async function writeEvents(write: SeriesWrite, valid: ValidSeries, written: WrittenEvents): Promise<void> {
  const from = { created: write.result.created.length, updated: write.result.updated.length };
  await writeMatched(write, valid);
  written.created.push(...write.result.created.slice(from.created));
  written.updated.push(...write.result.updated.slice(from.updated));
}

async function writeMatched(write: SeriesWrite, { series, bodies, schedules, ownId }: ValidSeries): Promise<void> {
  const { tx, scope } = write;
  const live = (await storedOccurrences(tx, scope.language, series.uid, ownId)).filter((row) => row.status !== "trash");
  if (series.cancelled) return trashAll(write, live);
  const byRecurrence = new Map(live.map((row) => [row.icalRecurrenceId ?? "", row]));
  const kept = new Set<number>();
  let parentId: number | null = null;
  for (const [index, { recurrenceId }] of series.occurrences.entries()) {
    const planned = {
      series,
      recurrenceId,
      body: bodies[index] as EventCreateBody,
      schedule: schedules[index] as EventSchedule,
    };
    const id = await writeOccurrence(write, planned, byRecurrence.get(recurrenceId), parentId);
    kept.add(id);
    if (series.recurring) {
      if (parentId === null) parentId = id;
      else await tx.event.update({ where: { id }, data: { parentId } });
    }
  }
  const dropped = live.filter((row) => !kept.has(row.id));
  await trashAll(write, dropped);
}

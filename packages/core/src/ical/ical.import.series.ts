import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import type { EventSchedule } from "../events/event.dates.ts";
import { EVENT_CHANGE_FIELDS } from "../events/event.plan.ts";
import type { EventCreateBody } from "../events/event.schemas.ts";
import { type SeriesPlan, startSeries, storedLines } from "../series/series.create.ts";
import { wallTimeInstant, wallTimePlus, wallTimeSeconds } from "../series/series.expand.ts";
import { regenerateSeries } from "../series/series.regenerate.ts";
import { trashOccurrences } from "../series/series.trash.ts";
import { formatWallTime } from "../shared/dates.ts";
import { createOccurrence, type SeriesWrite, updateOccurrence } from "./ical.import.write.ts";
import type { ImportedSeries } from "./ical.parse.ts";

/**
 * A recurring VEVENT kept as a series (docs/behaviour.md, "Importing iCalendar files"): created with its rule and
 * its exceptions; on a re-import matched by UID, left alone unless the file is newer or its rule changed (a
 * changed rule regenerates the occurrences, a newer file rewrites them, one change each).
 */

/** An exception of the file, validated: the occurrence it changes (RECURRENCE-ID), its body and overridden fields. */
export interface PlannedException {
  recurrenceId: string;
  body: EventCreateBody;
  schedule: EventSchedule;
  overrides: string[];
}

/** A series of the file, validated and expanded before the write. */
export interface PlannedSeries {
  plan: SeriesPlan;
  master: EventCreateBody;
  schedule: EventSchedule;
  exceptions: PlannedException[];
}

const LIVE_OCCURRENCE = {
  id: true,
  originalStartUtc: true,
  originalStartLocal: true,
  sequence: true,
  icalModifiedUtc: true,
  modifiedUtc: true,
  icalRecurrenceId: true,
  icalSequence: true,
  status: true,
  password: true,
  language: true,
  categories: { select: { categoryId: true } },
  tags: { select: { tagId: true } },
} as const;

function liveOccurrences(tx: Tx, seriesId: number) {
  return tx.event.findMany({
    where: { seriesId, status: { not: "trash" } },
    select: LIVE_OCCURRENCE,
    orderBy: { originalStartUtc: "asc" },
  });
}

type LiveOccurrence = Awaited<ReturnType<typeof liveOccurrences>>[number];

/** `20300312T180000Z`: the RECURRENCE-ID of an instant, as the import keys occurrences. */
function recurrenceKey(instant: Date): string {
  return formatWallTime(instant, "UTC").replaceAll("-", "").replaceAll(":", "").replace(" ", "T").concat("Z");
}

/**
 * Is the file's version newer than the stored occurrences' (a higher SEQUENCE, else a later LAST-MODIFIED than
 * any they have)? Our own feed writes the stored SEQUENCE and LAST-MODIFIED, so its re-import is never newer.
 */
function isNewer(imported: ImportedSeries, live: readonly LiveOccurrence[]): boolean {
  const sequence = Math.max(0, ...live.map((row) => Math.max(row.sequence, row.icalSequence ?? 0)));
  if (imported.sequence !== sequence) return imported.sequence > sequence;
  const modified = Math.max(0, ...live.map((row) => (row.icalModifiedUtc ?? row.modifiedUtc).getTime()));
  return (imported.lastModified?.getTime() ?? 0) > modified;
}

/** The occurrence's schedule as the rule gives it: its original start and the series' length. */
function ruleSchedule(planned: PlannedSeries, originalStartLocal: string): EventSchedule {
  const { frame, durationSeconds } = planned.plan;
  const endLocal = wallTimePlus(originalStartLocal, durationSeconds);
  return {
    timezone: frame.timezone,
    allDay: frame.allDay,
    startLocal: originalStartLocal,
    endLocal,
    startUtc: wallTimeInstant(originalStartLocal, frame.timezone),
    endUtc: wallTimeInstant(endLocal, frame.timezone),
  };
}

/**
 * Writes each occurrence as the file has it (the master's fields, or its exception's), recording one change for
 * each, except those this write created (they have theirs).
 */
async function rewriteOccurrences(
  write: SeriesWrite,
  imported: ImportedSeries,
  planned: PlannedSeries,
  live: readonly LiveOccurrence[],
): Promise<void> {
  const exceptions = new Map(planned.exceptions.map((exception) => [exception.recurrenceId, exception]));
  const rewritten: number[] = [];
  for (const occurrence of live) {
    if (!occurrence.originalStartUtc || !occurrence.originalStartLocal) continue;
    const recurrenceId = recurrenceKey(occurrence.originalStartUtc);
    const exception = exceptions.get(recurrenceId);
    const body = exception?.body ?? planned.master;
    const schedule = exception?.schedule ?? ruleSchedule(planned, occurrence.originalStartLocal);
    await updateOccurrence(write, { series: imported, recurrenceId, body, schedule }, occurrence);
    await write.tx.event.update({
      where: { id: occurrence.id },
      data: { overrides: JSON.stringify(exception?.overrides ?? []) },
    });
    if (!write.result.created.includes(occurrence.id)) rewritten.push(occurrence.id);
  }
  write.result.updated.push(...rewritten);
  const changed = await write.tx.event.findMany({ where: { id: { in: rewritten } }, select: EVENT_CHANGE_FIELDS });
  await recordChanges(
    write.tx,
    changed.map((row) => ({ type: "event" as const, action: "updated" as const, ...row })),
  );
}

/** The exceptions whose RECURRENCE-ID names no occurrence of the series, reported as skipped. */
function reportUnmatched(write: SeriesWrite, imported: ImportedSeries, planned: PlannedSeries, live: LiveOccurrence[]) {
  const known = new Set(live.flatMap((row) => (row.originalStartUtc ? [recurrenceKey(row.originalStartUtc)] : [])));
  for (const exception of planned.exceptions) {
    if (known.has(exception.recurrenceId)) continue;
    write.result.skipped.push({
      uid: imported.uid,
      reason: `RECURRENCE-ID ${exception.recurrenceId} is not an occurrence of the series.`,
    });
  }
}

async function createSeries(write: SeriesWrite, imported: ImportedSeries, planned: PlannedSeries): Promise<void> {
  const { tx } = write;
  const [first] = planned.plan.starts;
  const firstId = await createOccurrence(
    write,
    {
      series: imported,
      recurrenceId: recurrenceKey(first?.utc ?? planned.schedule.startUtc),
      body: planned.master,
      schedule: planned.schedule,
    },
    null,
  );
  const created = await tx.event.findUniqueOrThrow({ where: { id: firstId }, select: EVENT_CHANGE_FIELDS });
  await recordChanges(tx, [{ type: "event", action: "created", ...created }]);
  const seriesId = await startSeries(tx, firstId, planned.plan, { uid: imported.uid });
  const live = await liveOccurrences(tx, seriesId);
  const exceptions = new Map(planned.exceptions.map((exception) => [exception.recurrenceId, exception]));
  for (const occurrence of live) {
    const exception = occurrence.originalStartUtc && exceptions.get(recurrenceKey(occurrence.originalStartUtc));
    if (!exception) continue;
    // Part of the creation: the occurrence keeps the file's SEQUENCE.
    await updateOccurrence(write, { series: imported, ...exception }, occurrence, imported.sequence);
    await tx.event.update({ where: { id: occurrence.id }, data: { overrides: JSON.stringify(exception.overrides) } });
  }
  reportUnmatched(write, imported, planned, live);
  write.result.created.push(...live.map((occurrence) => occurrence.id));
}

/**
 * Was the UID imported before series were kept, as events of its own? Its re-imports keep writing those events
 * (matched by RECURRENCE-ID), never a second copy as a series.
 */
export async function importedAsEvents(tx: Tx, language: string, uid: string): Promise<boolean> {
  return (await tx.event.count({ where: { language, icalUid: uid, seriesId: null } })) > 0;
}

/** Writes one recurring VEVENT of the file as a series, matched by its UID to the series stored in the language. */
export async function writeKeptSeries(
  write: SeriesWrite,
  imported: ImportedSeries,
  planned: PlannedSeries,
): Promise<void> {
  const { tx, scope, now, result } = write;
  const stored = await tx.eventSeries.findUnique({
    where: { language_uid: { language: scope.language, uid: imported.uid } },
  });
  if (!stored) {
    if (!imported.cancelled) await createSeries(write, imported, planned);
    return;
  }
  const live = await liveOccurrences(tx, stored.id);
  if (imported.cancelled) {
    result.updated.push(
      ...(await trashOccurrences(
        tx,
        live.map((row) => row.id),
        scope.site.timezone,
        now,
      )),
    );
    return;
  }
  const { plan } = planned;
  const ruleChanged =
    storedLines(plan) !== stored.recurrence ||
    plan.frame.startLocal !== stored.startLocal ||
    plan.frame.timezone !== stored.timezone ||
    plan.frame.allDay !== stored.allDay ||
    plan.durationSeconds !== stored.durationSeconds;
  const newer = isNewer(imported, live);
  if (ruleChanged) {
    const shiftSeconds = wallTimeSeconds(stored.startLocal, plan.frame.startLocal);
    const regenerated = await regenerateSeries(tx, stored.id, plan, {
      shiftSeconds,
      siteZone: scope.site.timezone,
      now,
      provider: scope.provider,
    });
    result.created.push(...regenerated.created);
    result.updated.push(...regenerated.trashed, ...regenerated.deleted);
  }
  const current = ruleChanged ? await liveOccurrences(tx, stored.id) : live;
  if (newer) await rewriteOccurrences(write, imported, planned, current);
  else result.unchanged += current.filter((row) => !result.created.includes(row.id)).length;
  reportUnmatched(write, imported, planned, current);
}

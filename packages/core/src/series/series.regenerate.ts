import { recordChanges } from "../changes/change.record.ts";
import type { Provider, Tx } from "../db/db.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { ChargeEvents } from "../scope.ts";
import { inBatches, updateRows } from "../shared/bulk-insert.ts";
import { stampsAt } from "../shared/dates.ts";
import type { SeriesPlan } from "./series.create.ts";
import { storedLines } from "./series.create.ts";
import { type OccurrenceStart, wallTimeInstant, wallTimePlus } from "./series.expand.ts";
import { insertOccurrences, seriesBaseSlug, TEMPLATE_READ, type TemplateEvent } from "./series.occurrences.ts";
import { deleteOccurrences, trashOccurrences } from "./series.trash.ts";

/** What a series' occurrences become when its lines, first start or length change (docs/behaviour.md, "Recurring series"). */

/** The write fields that place an occurrence in time: an occurrence that overrides one keeps its own schedule. */
export const SCHEDULE_FIELDS = ["start_date", "end_date", "timezone", "all_day"];

/** The write fields an occurrence overrides (`Event.overrides`). */
export function overridesOf(event: { overrides: string }): string[] {
  const parsed: unknown = JSON.parse(event.overrides);
  return Array.isArray(parsed) ? parsed.filter((field): field is string => typeof field === "string") : [];
}

/** Does the occurrence keep a schedule of its own (it was moved)? */
export function keepsOwnSchedule(event: { overrides: string }): boolean {
  return overridesOf(event).some((field) => SCHEDULE_FIELDS.includes(field));
}

/**
 * The occurrence new ones are copied from: the latest one in the series that overrides nothing, else the latest
 * one, else the first (even trashed), so that a series always has one.
 */
export async function templateOf(tx: Tx, seriesId: number, firstEventId: number | null): Promise<TemplateEvent | null> {
  const latest = { orderBy: { originalStartUtc: "desc" }, ...TEMPLATE_READ } as const;
  const live = { seriesId, status: { not: "trash" } };
  return (
    (await tx.event.findFirst({ where: { ...live, overrides: "[]" }, ...latest })) ??
    (await tx.event.findFirst({ where: live, ...latest })) ??
    (firstEventId === null ? null : await tx.event.findUnique({ where: { id: firstEventId }, ...TEMPLATE_READ }))
  );
}

export interface Regeneration {
  /** Occurrences whose original start the new plan still gives (after the shift): same id, slug and links. */
  kept: number[];
  /** Occurrences the plan no longer gives that were edited on their own (or the first): to the trash. */
  trashed: number[];
  /** Occurrences the plan no longer gives that only ever were copies of the series: deleted. */
  deleted: number[];
  created: number[];
}

export interface RegenerationOptions {
  shiftSeconds: number;
  siteZone: string;
  now: Date;
  provider: Provider;
  /** Charges the occurrences it creates to the request's caller, before they are written. */
  chargeEvents?: ChargeEvents | undefined;
}

const SCHEDULE_COLUMNS = {
  startLocal: true,
  startUtc: true,
  endLocal: true,
  endUtc: true,
  timezone: true,
  allDay: true,
} as const satisfies Prisma.EventSelect;

type OccurrenceSchedule = Prisma.EventGetPayload<{ select: typeof SCHEDULE_COLUMNS }>;

/** What regenerating reads of an occurrence: where it is, what it overrides, what its change records. */
const OCCURRENCE_READ = {
  id: true,
  originalStartLocal: true,
  originalStartUtc: true,
  overrides: true,
  language: true,
  status: true,
  password: true,
  authorId: true,
  ...SCHEDULE_COLUMNS,
} as const satisfies Prisma.EventSelect;

type Occurrence = Prisma.EventGetPayload<{ select: typeof OCCURRENCE_READ }>;

function scheduleOfOccurrence(occurrence: OccurrenceSchedule): OccurrenceSchedule {
  const { startLocal, startUtc, endLocal, endUtc, timezone, allDay } = occurrence;
  return { startLocal, startUtc, endLocal, endUtc, timezone, allDay };
}

interface Move {
  occurrence: Occurrence;
  start: OccurrenceStart;
  schedule: OccurrenceSchedule;
}

/**
 * The occurrences the new starts keep, by the instant of the start each keeps: an occurrence is matched by its
 * original start moved by `shiftSeconds` of wall-clock time. Two starts share a wall time in the hour a change to
 * winter time repeats (an hourly rule): unmoved, an occurrence keeps the one of its own instant; moved, the first
 * one still free.
 */
function keptOccurrences(
  occurrences: readonly Occurrence[],
  starts: readonly OccurrenceStart[],
  shiftSeconds: number,
): Map<number, { occurrence: Occurrence; start: OccurrenceStart }> {
  const byWallTime = new Map<string, OccurrenceStart[]>();
  for (const start of starts) byWallTime.set(start.local, [...(byWallTime.get(start.local) ?? []), start]);
  const kept = new Map<number, { occurrence: Occurrence; start: OccurrenceStart }>();
  for (const occurrence of occurrences) {
    if (!occurrence.originalStartLocal) continue;
    const free = (byWallTime.get(wallTimePlus(occurrence.originalStartLocal, shiftSeconds)) ?? []).filter(
      (start) => !kept.has(start.utc.getTime()),
    );
    const own =
      shiftSeconds === 0
        ? free.find((start) => start.utc.getTime() === occurrence.originalStartUtc?.getTime())
        : undefined;
    const start = own ?? free[0];
    if (start) kept.set(start.utc.getTime(), { occurrence, start });
  }
  return kept;
}

/** Where a kept occurrence goes, unless it stays where it is. */
function moveOf(occurrence: Occurrence, start: OccurrenceStart, plan: SeriesPlan, shiftSeconds: number): Move[] {
  const ownSchedule = keepsOwnSchedule(occurrence);
  if (shiftSeconds === 0 && ownSchedule) return [];
  const endLocal = wallTimePlus(start.local, plan.durationSeconds);
  const schedule = ownSchedule
    ? scheduleOfOccurrence(occurrence)
    : {
        startLocal: start.local,
        startUtc: start.utc,
        endLocal,
        endUtc: wallTimeInstant(endLocal, plan.frame.timezone),
        timezone: plan.frame.timezone,
        allDay: plan.frame.allDay,
      };
  const moves =
    occurrence.originalStartLocal !== start.local ||
    occurrence.startUtc.getTime() !== schedule.startUtc.getTime() ||
    occurrence.endUtc.getTime() !== schedule.endUtc.getTime() ||
    occurrence.timezone !== schedule.timezone ||
    occurrence.allDay !== schedule.allDay;
  return moves ? [{ occurrence, start, schedule }] : [];
}

/** The kept occurrences that move take their new original start and schedule: one statement per batch. */
async function moveOccurrences(tx: Tx, options: RegenerationOptions, moves: readonly Move[]): Promise<void> {
  const stamp = stampsAt(options.now, options.siteZone);
  await updateRows(tx, options.provider, "Event", {
    columns: {
      startLocal: "text",
      startUtc: "timestamp",
      endLocal: "text",
      endUtc: "timestamp",
      timezone: "text",
      allDay: "boolean",
      originalStartLocal: "text",
      originalStartUtc: "timestamp",
      modified: "text",
      modifiedUtc: "timestamp",
    },
    increments: ["sequence"],
    rows: moves.map(({ occurrence, start, schedule }) => ({
      id: occurrence.id,
      ...schedule,
      originalStartLocal: start.local,
      originalStartUtc: start.utc,
      modified: stamp.local,
      modifiedUtc: stamp.utc,
    })),
  });
}

/**
 * The occurrences a new plan no longer gives: those that never existed but as copies of the series (never edited
 * on their own: no overrides; not the first, which the series and its other occurrences name) are deleted, since
 * the series can make them again; the others go to the trash like deleted events, where their own edits are kept.
 * Without this every rule change would leave up to a series' worth of trashed copies, with all their links.
 */
async function dropOccurrences(
  tx: Tx,
  dropped: ReadonlyArray<{ id: number; overrides: string }>,
  firstEventId: number | null,
  options: RegenerationOptions,
): Promise<{ trashed: number[]; deleted: number[] }> {
  const isCopy = (event: { id: number; overrides: string }) =>
    event.id !== firstEventId && overridesOf(event).length === 0;
  const deleted = await deleteOccurrences(
    tx,
    dropped.filter(isCopy).map((event) => event.id),
  );
  const trashed = await trashOccurrences(
    tx,
    dropped.filter((event) => !isCopy(event)).map((event) => event.id),
    options.siteZone,
    options.now,
  );
  return { trashed, deleted };
}

/**
 * Brings the occurrences of a series in line with a new plan, in the caller's transaction: the series takes the
 * plan's lines, first start, zone and length; an occurrence whose original start, moved by `shiftSeconds` (the
 * first start's move, zero when only the rule changes), is still a start of the plan keeps its id, slug and links,
 * and takes the new schedule unless it was moved on its own; the others are dropped (`dropOccurrences`); the
 * plan's other starts get new occurrences, copied from the series' template. One change per occurrence changed.
 * Every step is a few statements per batch of occurrences, whatever the series' length.
 */
export async function regenerateSeries(
  tx: Tx,
  seriesId: number,
  plan: SeriesPlan,
  options: RegenerationOptions,
): Promise<Regeneration> {
  const series = await tx.eventSeries.update({
    where: { id: seriesId },
    data: {
      recurrence: storedLines(plan),
      timezone: plan.frame.timezone,
      allDay: plan.frame.allDay,
      startLocal: plan.frame.startLocal,
      startUtc: wallTimeInstant(plan.frame.startLocal, plan.frame.timezone),
      durationSeconds: plan.durationSeconds,
      generatedUntilUtc: plan.generatedUntil,
    },
  });
  const occurrences = await tx.event.findMany({
    where: { seriesId, status: { not: "trash" } },
    select: OCCURRENCE_READ,
  });
  const kept = keptOccurrences(occurrences, plan.starts, options.shiftSeconds);
  const keptIds = new Set([...kept.values()].map((entry) => entry.occurrence.id));
  const dropped = occurrences.filter((occurrence) => !keptIds.has(occurrence.id));
  const moved: Move[] = [];
  // Each start's instants come from its zone's rules: computed a batch at a time too.
  await inBatches([...kept.values()], async (batch) => {
    moved.push(...batch.flatMap(({ occurrence, start }) => moveOf(occurrence, start, plan, options.shiftSeconds)));
  });
  await moveOccurrences(tx, options, moved);
  await recordChanges(
    tx,
    moved.map(({ occurrence }) => ({ type: "event" as const, action: "updated" as const, ...occurrence })),
  );
  const { trashed, deleted } = await dropOccurrences(tx, dropped, series.firstEventId, options);
  const missing = plan.starts.filter((start) => !kept.has(start.utc.getTime()));
  options.chargeEvents?.({ written: missing.length, created: missing.length });
  const template = missing.length ? await templateOf(tx, seriesId, series.firstEventId) : null;
  const created = template
    ? await insertOccurrences(tx, series, template, missing, {
        hourly: plan.rule.rrule?.includes("FREQ=HOURLY") ?? false,
        baseSlug: seriesBaseSlug(template),
      })
    : [];
  return { kept: [...kept.values()].map((entry) => entry.occurrence.id), trashed, deleted, created };
}

import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import { stampsAt } from "../shared/dates.ts";
import type { SeriesPlan } from "./series.create.ts";
import { storedLines } from "./series.create.ts";
import { type OccurrenceStart, wallTimeInstant, wallTimePlus } from "./series.expand.ts";
import { insertOccurrences, seriesBaseSlug, TEMPLATE_READ, type TemplateEvent } from "./series.occurrences.ts";
import { trashOccurrences } from "./series.trash.ts";

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
  trashed: number[];
  created: number[];
}

/**
 * Brings the occurrences of a series in line with a new plan, in the caller's transaction: the series takes the
 * plan's lines, first start, zone and length; an occurrence whose original start, moved by `shiftSeconds` (the
 * first start's move, zero when only the rule changes), is still a start of the plan keeps its id, slug and links,
 * and takes the new schedule unless it was moved on its own; the others are trashed like deleted events; the
 * plan's other starts get new occurrences, copied from the series' template. One change per occurrence changed.
 */
export async function regenerateSeries(
  tx: Tx,
  seriesId: number,
  plan: SeriesPlan,
  options: { shiftSeconds: number; siteZone: string; now: Date },
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
    select: {
      id: true,
      originalStartLocal: true,
      overrides: true,
      language: true,
      status: true,
      password: true,
      authorId: true,
    },
  });
  const wanted = new Map(plan.starts.map((start) => [start.local, start]));
  const kept: Array<{ occurrence: (typeof occurrences)[number]; start: OccurrenceStart }> = [];
  const trash: number[] = [];
  for (const occurrence of occurrences) {
    const original = occurrence.originalStartLocal && wallTimePlus(occurrence.originalStartLocal, options.shiftSeconds);
    const start = original ? wanted.get(original) : undefined;
    if (start && !kept.some((entry) => entry.start.local === start.local)) kept.push({ occurrence, start });
    else trash.push(occurrence.id);
  }
  const stamp = stampsAt(options.now, options.siteZone);
  const changed: number[] = [];
  for (const { occurrence, start } of kept) {
    const ownSchedule = keepsOwnSchedule(occurrence);
    if (options.shiftSeconds === 0 && ownSchedule) continue;
    const endLocal = wallTimePlus(start.local, plan.durationSeconds);
    const schedule = ownSchedule
      ? undefined
      : {
          startLocal: start.local,
          startUtc: start.utc,
          endLocal,
          endUtc: wallTimeInstant(endLocal, plan.frame.timezone),
          timezone: plan.frame.timezone,
          allDay: plan.frame.allDay,
        };
    const before = await tx.event.findUniqueOrThrow({
      where: { id: occurrence.id },
      select: { startUtc: true, endUtc: true, originalStartLocal: true, timezone: true, allDay: true },
    });
    const moves =
      before.originalStartLocal !== start.local ||
      (schedule !== undefined &&
        (before.startUtc.getTime() !== schedule.startUtc.getTime() ||
          before.endUtc.getTime() !== schedule.endUtc.getTime() ||
          before.timezone !== schedule.timezone ||
          before.allDay !== schedule.allDay));
    if (!moves) continue;
    await tx.event.update({
      where: { id: occurrence.id },
      data: {
        ...schedule,
        originalStartLocal: start.local,
        originalStartUtc: start.utc,
        modified: stamp.local,
        modifiedUtc: stamp.utc,
        sequence: { increment: 1 },
      },
    });
    changed.push(occurrence.id);
  }
  await recordChanges(
    tx,
    kept
      .filter(({ occurrence }) => changed.includes(occurrence.id))
      .map(({ occurrence }) => ({ type: "event" as const, action: "updated" as const, ...occurrence })),
  );
  const trashed = await trashOccurrences(tx, trash, options.siteZone, options.now);
  const keptStarts = new Set(kept.map((entry) => entry.start.local));
  const missing = plan.starts.filter((start) => !keptStarts.has(start.local));
  const template = missing.length ? await templateOf(tx, seriesId, series.firstEventId) : null;
  const created = template
    ? await insertOccurrences(tx, series, template, missing, {
        hourly: plan.rule.rrule?.includes("FREQ=HOURLY") ?? false,
        baseSlug: seriesBaseSlug(template),
      })
    : [];
  return { kept: kept.map((entry) => entry.occurrence.id), trashed, created };
}

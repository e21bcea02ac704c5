import { randomUUID } from "node:crypto";
import type { Tx } from "../db/db.ts";
import { invalidParam } from "../errors.ts";
import type { EventSchedule } from "../events/event.dates.ts";
import { horizonOf, type OccurrenceStart, seriesStarts, wallTimeSeconds } from "./series.expand.ts";
import { DEFAULT_SERIES_LIMITS, type SeriesLimits } from "./series.limits.ts";
import { insertOccurrences, seriesBaseSlug, TEMPLATE_READ } from "./series.occurrences.ts";
import { parseRecurrenceLines, recurrenceLines, type SeriesFrame, type SeriesRule } from "./series.rule.ts";
import { joinSeriesGroup } from "./series.translations.ts";

/** A series about to be created with its first occurrence: checked and expanded before the transaction. */
export interface SeriesPlan {
  frame: SeriesFrame;
  rule: SeriesRule;
  durationSeconds: number;
  starts: OccurrenceStart[];
  /** Null when the rule ends: every occurrence exists. */
  generatedUntil: Date | null;
}

/** The limits of a site's series. */
export function seriesLimitsOf(site: { seriesLimits?: SeriesLimits | undefined }): SeriesLimits {
  return site.seriesLimits ?? DEFAULT_SERIES_LIMITS;
}

/**
 * Reads and expands a `recurrence` for an event of this schedule (a 400 naming `recurrence` when it cannot). A new
 * series starts with the event written (`startsWithEvent`), so an EXDATE cannot exclude its start; an existing
 * series' new plan may exclude its first start like any other.
 */
export function planSeries(
  lines: readonly string[],
  schedule: EventSchedule,
  limits: SeriesLimits,
  now: Date,
  { startsWithEvent = true }: { startsWithEvent?: boolean } = {},
): SeriesPlan {
  const frame = { timezone: schedule.timezone, allDay: schedule.allDay, startLocal: schedule.startLocal };
  const rule = parseRecurrenceLines(lines, frame, limits.maxOccurrences);
  const until = horizonOf(now, limits);
  const { starts, ends } = seriesStarts(frame, rule, until, limits);
  if (startsWithEvent && starts[0]?.local !== frame.startLocal) {
    throw invalidParam("recurrence", "The event's start is the series' first occurrence: an EXDATE cannot exclude it.");
  }
  return {
    frame,
    rule,
    durationSeconds: wallTimeSeconds(schedule.startLocal, schedule.endLocal),
    starts,
    generatedUntil: ends ? null : until,
  };
}

/** The lines a series stores and shows. */
export function storedLines(plan: Pick<SeriesPlan, "rule" | "frame">): string {
  return JSON.stringify(recurrenceLines(plan.rule, plan.frame));
}

/**
 * Makes the event `firstEventId` (just created from the same body) the first occurrence of a new series and
 * creates the others from it; in the caller's transaction. Returns the series' id.
 */
export async function startSeries(
  tx: Tx,
  firstEventId: number,
  plan: SeriesPlan,
  options: { uid?: string | undefined } = {},
): Promise<number> {
  const first = await tx.event.findUniqueOrThrow({ where: { id: firstEventId }, ...TEMPLATE_READ });
  const series = await tx.eventSeries.create({
    data: {
      recurrence: storedLines(plan),
      timezone: plan.frame.timezone,
      allDay: plan.frame.allDay,
      startLocal: plan.frame.startLocal,
      startUtc: first.startUtc,
      durationSeconds: plan.durationSeconds,
      generatedUntilUtc: plan.generatedUntil,
      uid: options.uid ?? randomUUID(),
      language: first.language,
      firstEventId,
    },
  });
  const template = await tx.event.update({
    where: { id: firstEventId },
    data: { seriesId: series.id, originalStartLocal: first.startLocal, originalStartUtc: first.startUtc },
    ...TEMPLATE_READ,
  });
  const [, ...others] = plan.starts;
  await insertOccurrences(tx, series, template, others, {
    hourly: plan.rule.rrule?.includes("FREQ=HOURLY") ?? false,
    baseSlug: seriesBaseSlug({ slug: first.slug, originalStartLocal: null }),
  });
  await joinSeriesGroup(tx, series.id, first);
  return series.id;
}

import { randomUUID } from "node:crypto";
import ICAL from "ical.js";
import { DateTime } from "luxon";
import type { Tx } from "../db/db.ts";
import type { EventSeries } from "../generated/sqlite/client.ts";
import { WALL_TIME } from "../shared/dates.ts";
import { seriesStarts, wallTimeInstant, wallTimePlus } from "./series.expand.ts";
import type { SeriesLimits } from "./series.limits.ts";
import { parseRecurrenceLines, recurrenceLines, type SeriesFrame, type SeriesRule } from "./series.rule.ts";

/**
 * A series' rule cut in two at an occurrence's original start (docs/behaviour.md, "Editing and deleting
 * occurrences"): the earlier part's rule ends just before the cut, the later part starts at it; or moved in time.
 */

/** The rule's parts (`FREQ=WEEKLY;COUNT=4`) without the named ones, plus the given ones, in ical.js' normal order. */
function withParts(rrule: string, drop: readonly string[], add: Record<string, string>): string {
  const kept = rrule.split(";").filter((part) => !drop.includes(part.slice(0, part.indexOf("="))));
  const added = Object.entries(add).map(([name, value]) => `${name}=${value}`);
  return ICAL.Recur.fromString([...kept, ...added].join(";")).toString();
}

function partOf(rrule: string, name: string): string | undefined {
  const part = rrule.split(";").find((candidate) => candidate.startsWith(`${name}=`));
  return part?.slice(name.length + 1);
}

/** The UNTIL that ends a rule just before `cut`: the second before (timed series, in UTC) or the day before (all-day). */
function untilBefore(cut: string, frame: SeriesFrame): string {
  if (frame.allDay) return DateTime.fromFormat(cut, WALL_TIME).minus({ days: 1 }).toFormat("yyyyMMdd");
  return DateTime.fromJSDate(wallTimeInstant(cut, frame.timezone), { zone: "UTC" })
    .minus({ seconds: 1 })
    .toFormat("yyyyMMdd'T'HHmmss'Z'");
}

/** A series needs a line: with neither rule nor dates left, its first start is its one RDATE. */
function withALine(rule: SeriesRule, firstStart: string): SeriesRule {
  return rule.rrule === null && rule.rdates.length === 0 ? { ...rule, rdates: [firstStart] } : rule;
}

/**
 * The rule ending before `cut` (a wall time after the first start): COUNT becomes UNTIL, an earlier UNTIL stays,
 * RDATE and EXDATE keep the dates before the cut.
 */
export function ruleBefore(rule: SeriesRule, frame: SeriesFrame, cut: string): SeriesRule {
  const until = untilBefore(cut, frame);
  const current = rule.rrule === null ? undefined : partOf(rule.rrule, "UNTIL");
  // Both are written alike (YYYYMMDD or YYYYMMDDTHHMMSSZ), so they compare as text.
  const earlier = current !== undefined && current < until ? current : until;
  return withALine(
    {
      rrule: rule.rrule === null ? null : withParts(rule.rrule, ["COUNT", "UNTIL"], { UNTIL: earlier }),
      rdates: rule.rdates.filter((date) => date < cut),
      exdates: rule.exdates.filter((date) => date < cut),
    },
    frame.startLocal,
  );
}

/**
 * The rule from `cut` on, read from `cut` as its first start: a COUNT loses the rule's starts before the cut (none
 * left: the rule goes), UNTIL stays, RDATE and EXDATE keep the dates from the cut.
 */
export function ruleFrom(rule: SeriesRule, frame: SeriesFrame, cut: string, limits: SeriesLimits): SeriesRule {
  const count = rule.rrule === null ? undefined : partOf(rule.rrule, "COUNT");
  let rrule = rule.rrule;
  if (rule.rrule !== null && count !== undefined) {
    const ruleOnly = { rrule: rule.rrule, rdates: [], exdates: [] };
    const before = seriesStarts(frame, ruleOnly, new Date(), limits).starts.filter((start) => start.local < cut).length;
    const left = Number(count) - before;
    rrule = left > 0 ? withParts(rule.rrule, ["COUNT"], { COUNT: String(left) }) : null;
  }
  return withALine(
    { rrule, rdates: rule.rdates.filter((date) => date >= cut), exdates: rule.exdates.filter((date) => date >= cut) },
    cut,
  );
}

/** The rule moved by `seconds` of wall-clock time, as the series' first start moves: its listed dates and its UNTIL. */
export function shiftedRule(rule: SeriesRule, frame: SeriesFrame, seconds: number): SeriesRule {
  if (seconds === 0) return rule;
  const until = rule.rrule === null ? undefined : partOf(rule.rrule, "UNTIL");
  const format = frame.allDay ? "yyyyMMdd" : "yyyyMMdd'T'HHmmss'Z'";
  const movedUntil = until && DateTime.fromFormat(until, format, { zone: "UTC" }).plus({ seconds }).toFormat(format);
  return {
    rrule: rule.rrule && movedUntil ? withParts(rule.rrule, ["UNTIL"], { UNTIL: movedUntil }) : rule.rrule,
    rdates: rule.rdates.map((date) => wallTimePlus(date, seconds)),
    exdates: rule.exdates.map((date) => wallTimePlus(date, seconds)),
  };
}

export function frameOf(series: Pick<EventSeries, "timezone" | "allDay" | "startLocal">): SeriesFrame {
  return { timezone: series.timezone, allDay: series.allDay, startLocal: series.startLocal };
}

/** The rule a series stores, read in its frame. */
export function storedRule(series: EventSeries, limits: SeriesLimits): SeriesRule {
  const lines: unknown = JSON.parse(series.recurrence);
  const strings = Array.isArray(lines) ? lines.filter((line): line is string => typeof line === "string") : [];
  return parseRecurrenceLines(strings, frameOf(series), limits.maxOccurrences);
}

/** Ends a series before `cut`: its rule gets an UNTIL (so every occurrence exists). Its occurrences are left alone. */
export async function endSeriesBefore(tx: Tx, series: EventSeries, cut: string, limits: SeriesLimits): Promise<void> {
  const frame = frameOf(series);
  await tx.eventSeries.update({
    where: { id: series.id },
    data: {
      recurrence: JSON.stringify(recurrenceLines(ruleBefore(storedRule(series, limits), frame, cut), frame)),
      generatedUntilUtc: null,
    },
  });
}

/**
 * Splits a series at one of its occurrences (`first`, not the series' first): the series ends before its original
 * start, and a new series (a new UID) starts there, taking that occurrence and the later ones with their ids; the
 * later ones' `post_parent` becomes `first`. Returns the new series.
 */
export async function splitSeries(
  tx: Tx,
  series: EventSeries,
  first: { id: number; originalStartLocal: string },
  limits: SeriesLimits,
): Promise<EventSeries> {
  const cut = first.originalStartLocal;
  const frame = frameOf(series);
  const later = ruleFrom(storedRule(series, limits), frame, cut, limits);
  await endSeriesBefore(tx, series, cut, limits);
  const created = await tx.eventSeries.create({
    data: {
      recurrence: JSON.stringify(recurrenceLines(later, { ...frame, startLocal: cut })),
      timezone: series.timezone,
      allDay: series.allDay,
      startLocal: cut,
      startUtc: wallTimeInstant(cut, series.timezone),
      durationSeconds: series.durationSeconds,
      generatedUntilUtc: series.generatedUntilUtc,
      uid: randomUUID(),
      language: series.language,
      firstEventId: first.id,
    },
  });
  const moved = { seriesId: series.id, originalStartLocal: { gte: cut } };
  await tx.event.updateMany({ where: moved, data: { seriesId: created.id, parentId: first.id } });
  await tx.event.update({ where: { id: first.id }, data: { parentId: null } });
  return created;
}

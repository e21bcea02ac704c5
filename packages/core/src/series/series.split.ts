import { randomUUID } from "node:crypto";
import ICAL from "ical.js";
import { DateTime } from "luxon";
import type { Tx } from "../db/db.ts";
import { invalidParam } from "../errors.ts";
import type { EventSeries } from "../generated/sqlite/client.ts";
import { seriesStarts, wallTimeInstant, wallTimePlus } from "./series.expand.ts";
import type { SeriesLimits } from "./series.limits.ts";
import {
  frameOf,
  parseRecurrenceLines,
  recurrenceLines,
  type SeriesFrame,
  type SeriesRule,
  untilWallTime,
} from "./series.rule.ts";

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

/**
 * The UNTIL that ends a rule just before `cut`: at the rule's last start before it (so that the rule gives the same
 * starts with COUNT replaced, and a cut in an hour a DST change skips is still left out), as a UTC time or, in an
 * all-day series, a date. Undefined when the rule gives no start before the cut.
 */
function untilBefore(rrule: string, frame: SeriesFrame, cut: string, limits: SeriesLimits): string | undefined {
  const window = new Date(wallTimeInstant(cut, frame.timezone).getTime() + 1);
  const { starts } = seriesStarts(frame, { rrule, rdates: [], exdates: [] }, window, limits);
  const last = starts.filter((start) => start.local < cut).at(-1);
  if (last === undefined) return undefined;
  if (frame.allDay) return last.local.slice(0, 10).replaceAll("-", "");
  return DateTime.fromJSDate(last.utc, { zone: "UTC" }).toFormat("yyyyMMdd'T'HHmmss'Z'");
}

/** A series needs a line: with neither rule nor dates left, its first start is its one RDATE. */
function withALine(rule: SeriesRule, firstStart: string): SeriesRule {
  return rule.rrule === null && rule.rdates.length === 0 ? { ...rule, rdates: [firstStart] } : rule;
}

/**
 * The rule ending before `cut` (a wall time after the first start): COUNT or UNTIL become an UNTIL at its last
 * start before the cut, RDATE and EXDATE keep the dates before the cut.
 */
export function ruleBefore(rule: SeriesRule, frame: SeriesFrame, cut: string, limits: SeriesLimits): SeriesRule {
  const until = rule.rrule === null ? undefined : untilBefore(rule.rrule, frame, cut, limits);
  return withALine(
    {
      rrule:
        rule.rrule === null || until === undefined ? null : withParts(rule.rrule, ["COUNT", "UNTIL"], { UNTIL: until }),
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

/**
 * The rule moved by `seconds` of wall-clock time, as the series' first start moves, and into `zone` (the series'
 * new zone, its own by default): its listed dates and its UNTIL, which keeps its wall time in the series' zone (an
 * UNTIL kept as the same UTC time would cut the last occurrence of a series moved west).
 */
export function shiftedRule(rule: SeriesRule, frame: SeriesFrame, seconds: number, zone = frame.timezone): SeriesRule {
  if (seconds === 0 && zone === frame.timezone) return rule;
  const namesDays = rule.rrule?.split(";").some((part) => part.startsWith("BY")) ?? false;
  if (namesDays && wallTimePlus(frame.startLocal, seconds).slice(0, 10) !== frame.startLocal.slice(0, 10)) {
    // The rule's BYDAY, BYMONTHDAY… name the old days: kept, they would give other dates than the moved ones.
    throw invalidParam(
      "start_date",
      "Moving a series to another day changes the days its rule names: send recurrence with the rule for the new days.",
    );
  }
  const until = rule.rrule === null ? undefined : partOf(rule.rrule, "UNTIL");
  return {
    rrule:
      rule.rrule && until
        ? withParts(rule.rrule, ["UNTIL"], { UNTIL: movedUntil(until, frame, seconds, zone) })
        : rule.rrule,
    rdates: rule.rdates.map((date) => wallTimePlus(date, seconds)),
    exdates: rule.exdates.map((date) => wallTimePlus(date, seconds)),
  };
}

/** An UNTIL moved by `seconds` of wall-clock time and read in `zone`: a date, or a UTC time. */
function movedUntil(until: string, frame: SeriesFrame, seconds: number, zone: string): string {
  if (frame.allDay) {
    return DateTime.fromFormat(until, "yyyyMMdd", { zone: "UTC" }).plus({ seconds }).toFormat("yyyyMMdd");
  }
  const instant = wallTimeInstant(wallTimePlus(untilWallTime(until, frame), seconds), zone);
  return DateTime.fromJSDate(instant, { zone: "UTC" }).toFormat("yyyyMMdd'T'HHmmss'Z'");
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
      recurrence: JSON.stringify(recurrenceLines(ruleBefore(storedRule(series, limits), frame, cut, limits), frame)),
      generatedUntilUtc: null,
    },
  });
}

/**
 * Splits a series at one of its occurrences (`first`, not the series' first): the series ends before its original
 * start, and a new series (a new UID) starts there, taking that occurrence and the later ones with their ids; the
 * later ones' `post_parent` becomes `first`. Returns the new series.
 */
/**
 * The later part of a split starts at the cut, so the cut must be a date of the rule: one that an RDATE added would
 * start the rule anew from another day (an INTERVAL or a rule without BY… parts counts from its first start), giving
 * other dates than the series had.
 */
function requireRuleDate(rule: SeriesRule, frame: SeriesFrame, cut: string, limits: SeriesLimits): void {
  if (rule.rrule === null) return;
  const cutInstant = wallTimeInstant(cut, frame.timezone);
  const { starts, ends } = seriesStarts(
    frame,
    { rrule: rule.rrule, rdates: [], exdates: [] },
    new Date(cutInstant.getTime() + 1),
    limits,
  );
  const continues = !ends || starts.some((start) => start.local > cut);
  if (continues && !starts.some((start) => start.local === cut)) {
    throw invalidParam(
      "recurrence_scope",
      "This occurrence was added by an RDATE, not given by the rule: edit it alone (this) or the whole series (all).",
    );
  }
}

export async function splitSeries(
  tx: Tx,
  series: EventSeries,
  first: { id: number; originalStartLocal: string },
  limits: SeriesLimits,
): Promise<EventSeries> {
  const cut = first.originalStartLocal;
  const frame = frameOf(series);
  const rule = storedRule(series, limits);
  requireRuleDate(rule, frame, cut, limits);
  const later = ruleFrom(rule, frame, cut, limits);
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

import { createHash } from "node:crypto";
import { anyRow } from "../db/any-row.ts";
import { type Db, readerOf } from "../db/db.ts";
import { instantParam, perProvider } from "../db/json-sql.ts";
import { runWrite } from "../db/write.ts";
import { DomainError } from "../errors.ts";
import { yieldToRequests } from "../shared/time-slices.ts";
import { type Extension, extendedStarts, horizonOf } from "./series.expand.ts";
import type { SeriesLimits } from "./series.limits.ts";
import { insertOccurrences, seriesBaseSlug } from "./series.occurrences.ts";
import { templateOf } from "./series.regenerate.ts";
import { parseRecurrenceLines, type SeriesFrame } from "./series.rule.ts";

/**
 * The horizon of rules without an end (docs/behaviour.md, "The horizon"): their occurrences exist up to
 * `now + horizonMonths`; as time passes, the occurrences that come within it are created.
 */

/** Series read per query of the ones due; each is then extended in a transaction of its own. */
const SERIES_PER_READ = 20;

export interface HorizonReport {
  /** Series whose occurrences were extended (or found complete) and whose horizon moved. */
  extended: number;
  /** Occurrences created. */
  created: number;
  /** Series whose stored rule stopped expanding in this run (marked, and left alone until edited), by id. */
  failed: number[];
}

type DueSeries = Awaited<ReturnType<typeof dueSeries>>[number];

function dueSeries(db: Db, afterId: number, until: Date) {
  return db.eventSeries.findMany({
    where: { id: { gt: afterId }, generatedUntilUtc: { lt: until } },
    orderBy: { id: "asc" },
    take: SERIES_PER_READ,
  });
}

/** What the horizon fields were found for: the rule, its zone and its first start (an edit of any voids them). */
function ruleKeyOf(series: DueSeries): string {
  const { recurrence, timezone, allDay, startLocal } = series;
  return createHash("sha256")
    .update(JSON.stringify([recurrence, timezone, allDay, startLocal]))
    .digest("hex");
}

/** The series' starts from its horizon to `until`, expanded from where the last extension left its rule. */
function extensionOf(series: DueSeries, after: Date, until: Date, limits: SeriesLimits, key: string): Extension {
  const frame: SeriesFrame = { timezone: series.timezone, allDay: series.allDay, startLocal: series.startLocal };
  const rule = parseRecurrenceLines(JSON.parse(series.recurrence) as string[], frame, limits.maxOccurrences);
  const resumeFrom = (series.horizonRuleKey === key ? series.horizonResumeLocal : null) ?? series.startLocal;
  return extendedStarts(frame, rule, { resumeFrom, after, until });
}

/** The series is still as it was read (no write changed its rule or horizon meanwhile). */
function unchanged(series: DueSeries) {
  return { id: series.id, generatedUntilUtc: series.generatedUntilUtc, recurrence: series.recurrence };
}

function liveOccurrences(seriesId: number) {
  return { seriesId, status: { not: "trash" } };
}

type Outcome = { created: number } | { stopped: true } | null;

/**
 * Extends one series to `until`: its starts are found outside the transaction, then the missing occurrences are
 * created (none for a series already holding `limits.maxOccurrences`) and its horizon moved in one. Null when the
 * series is left as it is: its rule stopped expanding before (and was not edited since), its occurrences are all in
 * the trash (deleted with the series), or another write moved it meanwhile.
 */
async function extendSeries(db: Db, series: DueSeries, until: Date, limits: SeriesLimits): Promise<Outcome> {
  const after = series.generatedUntilUtc;
  const key = ruleKeyOf(series);
  if (after === null || (series.horizonStopped !== null && series.horizonRuleKey === key)) return null;
  // A series deleted with its occurrences (all trashed) is not expanded at all: it waits, its horizon where it was.
  if ((await db.event.count({ where: liveOccurrences(series.id) })) === 0) return null;
  let extension: Extension;
  try {
    extension = extensionOf(series, after, until, limits, key);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const { params } = error.extra;
    const reason = typeof params === "object" && params !== null ? Object.values(params).join(" ") : error.message;
    const marked = await runWrite(db, (tx) =>
      tx.eventSeries.updateMany({ where: unchanged(series), data: { horizonRuleKey: key, horizonStopped: reason } }),
    );
    return marked.count === 1 ? { stopped: true } : null;
  }
  return runWrite(db, async (tx) => {
    const held = await tx.event.count({ where: liveOccurrences(series.id) });
    // No first-occurrence fallback: a series whose occurrences are all trashed gets none in the trash.
    const template = held > 0 ? await templateOf(tx, series.id, null) : null;
    if (template === null) return null;
    const room = Math.max(0, limits.maxOccurrences - held);
    // A series at its maximum keeps its horizon at its first start left out, so that it says what exists.
    const generatedUntil = extension.starts[room]?.utc ?? until;
    const existing = new Set(
      (
        await tx.event.findMany({
          where: { seriesId: series.id, originalStartUtc: { gte: after } },
          select: { originalStartUtc: true },
        })
      ).map((event) => event.originalStartUtc?.getTime()),
    );
    const starts = extension.starts.slice(0, room).filter((start) => !existing.has(start.utc.getTime()));
    const resume = extension.ruleDates.filter((date) => date.utc < generatedUntil).at(-1)?.local;
    const moved = await tx.eventSeries.updateMany({
      where: unchanged(series),
      data: {
        generatedUntilUtc: generatedUntil,
        horizonRuleKey: key,
        horizonResumeLocal: resume ?? (series.horizonRuleKey === key ? series.horizonResumeLocal : null),
        horizonStopped: null,
      },
    });
    if (moved.count !== 1) return null;
    await insertOccurrences(tx, series, template, starts, {
      hourly: series.recurrence.includes("FREQ=HOURLY"),
      baseSlug: seriesBaseSlug(template),
    });
    return { created: starts.length };
  });
}

const BELOW_HORIZON = perProvider(({ param }) => `SELECT 1 FROM "EventSeries" WHERE "generatedUntilUtc" < ${param(1)}`);

/** Whether `extendSeriesHorizons` would find a series to extend at `now`: read on the driver, without a write. */
export async function hasSeriesBelowHorizon(db: Db, now: Date, limits: SeriesLimits): Promise<boolean> {
  return anyRow(db, BELOW_HORIZON, [instantParam(readerOf(db).provider, horizonOf(now, limits))]);
}

/**
 * Creates the occurrences of every rule without an end up to the horizon ahead of `now`, one series per transaction,
 * in the order of their ids, yielding between series. Each series is expanded from the date its last extension
 * reached, not from its first start. A stored rule that no longer expands (a bound lowered since) is marked, reported
 * once and left alone until it is edited; the others go on.
 */
export async function extendSeriesHorizons(db: Db, now: Date, limits: SeriesLimits): Promise<HorizonReport> {
  const until = horizonOf(now, limits);
  const report: HorizonReport = { extended: 0, created: 0, failed: [] };
  let afterId = 0;
  for (;;) {
    const due = await dueSeries(db, afterId, until);
    const last = due.at(-1);
    if (last === undefined) return report;
    afterId = last.id;
    for (const series of due) {
      const outcome = await extendSeries(db, series, until, limits);
      if (outcome !== null && "stopped" in outcome) report.failed.push(series.id);
      else if (outcome !== null) {
        report.extended += 1;
        report.created += outcome.created;
      }
      // The requests that arrived meanwhile run before the next series is expanded.
      await yieldToRequests();
    }
  }
}

import { anyRow } from "../db/any-row.ts";
import { type Db, readerOf, type Tx } from "../db/db.ts";
import { instantParam, perProvider } from "../db/json-sql.ts";
import { runWrite } from "../db/write.ts";
import { DomainError } from "../errors.ts";
import { MAX_RULE_STEPS } from "../ical/ical.recurrence.ts";
import { horizonOf, type OccurrenceStart, seriesStarts } from "./series.expand.ts";
import { MAX_RECURRENCE_DATES, type SeriesLimits } from "./series.limits.ts";
import { insertOccurrences, seriesBaseSlug, TEMPLATE_READ } from "./series.occurrences.ts";
import { parseRecurrenceLines, type SeriesFrame } from "./series.rule.ts";

/**
 * The horizon of rules without an end (docs/behaviour.md, "The horizon"): their occurrences exist up to
 * `now + horizonMonths`; as time passes, the occurrences that come within it are created.
 */

/** Series extended per transaction: a transaction stays short whatever the number of series. */
const SERIES_PER_TRANSACTION = 20;

/**
 * The most starts read from a stored rule: the expansion spends at most MAX_RULE_STEPS candidates, and the listed
 * dates add at most MAX_RECURRENCE_DATES. Reading them all lets a series that reached its maximum keep its first ones.
 */
const ALL_STARTS = MAX_RULE_STEPS + MAX_RECURRENCE_DATES;

export interface HorizonReport {
  /** Series whose occurrences were extended (or found complete) and whose horizon moved. */
  extended: number;
  /** Occurrences created. */
  created: number;
  /** Series whose stored rule could not be expanded (left as they are), by id. */
  failed: number[];
}

type DueSeries = NonNullable<Awaited<ReturnType<typeof readSeries>>>;

function readSeries(tx: Tx, id: number) {
  return tx.eventSeries.findUnique({ where: { id } });
}

/** The occurrence new ones are copied from: the latest one nobody edited on its own, else the first. */
async function templateOf(tx: Tx, series: DueSeries) {
  const plain = await tx.event.findFirst({
    where: { seriesId: series.id, status: { not: "trash" }, overrides: "[]" },
    orderBy: { originalStartUtc: "desc" },
    ...TEMPLATE_READ,
  });
  if (plain) return plain;
  return series.firstEventId === null
    ? null
    : tx.event.findUnique({ where: { id: series.firstEventId }, ...TEMPLATE_READ });
}

/** The starts from the series' current horizon to the new one. */
function startsAfterHorizon(series: DueSeries, until: Date, limits: SeriesLimits): OccurrenceStart[] {
  const frame: SeriesFrame = { timezone: series.timezone, allDay: series.allDay, startLocal: series.startLocal };
  const lines = JSON.parse(series.recurrence) as string[];
  const rule = parseRecurrenceLines(lines, frame, limits.maxOccurrences);
  const { starts } = seriesStarts(frame, rule, until, { ...limits, maxOccurrences: ALL_STARTS });
  const from = series.generatedUntilUtc ?? until;
  return starts.filter((start) => start.utc >= from);
}

/**
 * Extends one series to `until` in the caller's transaction: creates the missing occurrences (none for a series
 * already holding `limits.maxOccurrences`) and moves its horizon. Answers how many were created, or null when the
 * series no longer needs it (its rule now ends, or another write moved it meanwhile).
 */
async function extendSeries(tx: Tx, id: number, until: Date, limits: SeriesLimits): Promise<number | null> {
  const series = await readSeries(tx, id);
  if (!series?.generatedUntilUtc || series.generatedUntilUtc >= until) return null;
  const held = await tx.event.count({ where: { seriesId: id, status: { not: "trash" } } });
  const template = await templateOf(tx, series);
  const after = template ? startsAfterHorizon(series, until, limits) : [];
  const room = Math.max(0, limits.maxOccurrences - held);
  // A series at its maximum keeps its horizon at its first start left out, so that it says what exists.
  const firstLeftOut = after[room];
  const existing = new Set(
    (
      await tx.event.findMany({
        where: { seriesId: id, originalStartUtc: { gte: series.generatedUntilUtc } },
        select: { originalStartLocal: true },
      })
    ).map((event) => event.originalStartLocal),
  );
  const starts = after.slice(0, room).filter((start) => !existing.has(start.local));
  const moved = await tx.eventSeries.updateMany({
    where: { id, generatedUntilUtc: series.generatedUntilUtc, recurrence: series.recurrence },
    data: { generatedUntilUtc: firstLeftOut?.utc ?? until },
  });
  if (moved.count !== 1 || !template) return null;
  await insertOccurrences(tx, series, template, starts, {
    hourly: series.recurrence.includes("FREQ=HOURLY"),
    baseSlug: seriesBaseSlug(template),
  });
  return starts.length;
}

const BELOW_HORIZON = perProvider(({ param }) => `SELECT 1 FROM "EventSeries" WHERE "generatedUntilUtc" < ${param(1)}`);

/** Whether `extendSeriesHorizons` would find a series to extend at `now`: read on the driver, without a write. */
export async function hasSeriesBelowHorizon(db: Db, now: Date, limits: SeriesLimits): Promise<boolean> {
  return anyRow(db, BELOW_HORIZON, [instantParam(readerOf(db).provider, horizonOf(now, limits))]);
}

/**
 * Creates the occurrences of every rule without an end up to the horizon ahead of `now`, a few series per
 * transaction, in the order of their ids. A stored rule that no longer expands (a bound lowered since) is reported
 * and left as it is; the others go on.
 */
export async function extendSeriesHorizons(db: Db, now: Date, limits: SeriesLimits): Promise<HorizonReport> {
  const until = horizonOf(now, limits);
  const report: HorizonReport = { extended: 0, created: 0, failed: [] };
  let afterId = 0;
  for (;;) {
    const due = await db.eventSeries.findMany({
      where: { id: { gt: afterId }, generatedUntilUtc: { lt: until } },
      orderBy: { id: "asc" },
      take: SERIES_PER_TRANSACTION,
      select: { id: true },
    });
    const last = due.at(-1);
    if (last === undefined) return report;
    afterId = last.id;
    const outcomes = await runWrite(db, async (tx) => {
      const results: Array<{ id: number; created: number | null } | { id: number; failed: true }> = [];
      for (const { id } of due) {
        try {
          results.push({ id, created: await extendSeries(tx, id, until, limits) });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          results.push({ id, failed: true });
        }
      }
      return results;
    });
    for (const outcome of outcomes) {
      if ("failed" in outcome) report.failed.push(outcome.id);
      else if (outcome.created !== null) {
        report.extended += 1;
        report.created += outcome.created;
      }
    }
  }
}

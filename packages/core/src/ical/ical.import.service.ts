import { requireCapability } from "../auth/capabilities.ts";
import type { Tx } from "../db/db.ts";
import { runWrite } from "../db/write.ts";
import { DomainError, parseOrThrow } from "../errors.ts";
import { scheduleOf } from "../events/event.dates.ts";
import { eventCreateBody } from "../events/event.schemas.ts";
import type { Scope } from "../scope.ts";
import { planSeries, seriesLimitsOf } from "../series/series.create.ts";
import type { SeriesLimits } from "../series/series.limits.ts";
import { eventUidHost, ownEventId } from "./ical.identity.ts";
import { DEFAULT_IMPORT_CAPS, type ImportResult } from "./ical.import.schemas.ts";
import { importedAsEvents, type PlannedSeries, writeKeptSeries } from "./ical.import.series.ts";
import { recordWritten, type ValidSeries, type WrittenEvents, writeEvents } from "./ical.import.write.ts";
import type { ImportedRule, ImportedSeries, ImportSkip } from "./ical.parse.ts";

export interface IcalImportOptions {
  dryRun: boolean;
  /** How far recurring series are expanded, in months from the later of their start and today. */
  horizonMonths: number;
  /** The most occurrences of one series. */
  seriesCap: number;
  /** The host of `CALENDAR_PUBLIC_URL`, when set: how the UIDs of our own feeds' events end. */
  publicHost?: string | undefined;
}

/** A dry run is one transaction over the whole file (within the caps), longer than a request's. */
const IMPORT_WRITE = { timeout: 300_000 };

/** Events written per transaction (a series is never split, so a batch may hold one larger series). */
const IMPORT_BATCH_EVENTS = 50;

/**
 * After each batch the import pauses as long as the batch took, so that it holds the database (SQLite has one
 * writer) at most half the time and the requests that queued meanwhile get it first.
 */
function pauseAfter(started: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, performance.now() - started));
}

class DryRun extends Error {
  constructor(readonly result: ImportResult) {
    super("dry run");
  }
}

function emptyResult(skipped: ImportSkip[], valid: readonly ValidSeries[]): ImportResult {
  const series = valid.filter((item) => item.series.recurring).length;
  return { created: [], updated: [], unchanged: 0, skipped, series };
}

/** Consecutive series of about `size` events each. */
function batchesOf(valid: readonly ValidSeries[], size: number): ValidSeries[][] {
  const batches: ValidSeries[][] = [];
  let events = size;
  for (const item of valid) {
    if (events >= size) {
      batches.push([]);
      events = 0;
    }
    batches.at(-1)?.push(item);
    events += item.bodies.length;
  }
  return batches;
}

/** Writes the series into `result` (within the caller's transaction), with one change per event written. */
async function writeAll(tx: Tx, scope: Scope, valid: readonly ValidSeries[], result: ImportResult): Promise<void> {
  const written: WrittenEvents = { created: [], updated: [] };
  for (const item of valid) {
    const write = { tx, scope, now: new Date(), result };
    const { planned } = item;
    if (planned && !(await importedAsEvents(tx, scope.language, item.series.uid))) {
      await writeKeptSeries(write, item.series, planned);
    } else await writeEvents(write, item, written);
  }
  await recordWritten(tx, written);
}

/** Each batch in its own transaction; the ids and counts of every batch, in order. */
async function writeInBatches(scope: Scope, valid: readonly ValidSeries[], result: ImportResult) {
  for (const batch of batchesOf(valid, IMPORT_BATCH_EVENTS)) {
    const started = performance.now();
    const written = await runWrite(scope.db, async (tx) => {
      const partial = emptyResult([], []);
      await writeAll(tx, scope, batch, partial);
      return partial;
    });
    result.created.push(...written.created);
    result.updated.push(...written.updated);
    result.unchanged += written.unchanged;
    result.skipped.push(...written.skipped);
    await pauseAfter(started);
  }
  return result;
}

async function dryRun(scope: Scope, valid: readonly ValidSeries[], skipped: ImportSkip[]): Promise<ImportResult> {
  try {
    return await runWrite(
      scope.db,
      async (tx) => {
        const result = emptyResult(skipped, valid);
        await writeAll(tx, scope, valid, result);
        throw new DryRun(result);
      },
      IMPORT_WRITE,
    );
  } catch (error) {
    if (error instanceof DryRun) return error.result;
    throw error;
  }
}

/** What one body of the file writes: the event as `POST /events` validates it, and its schedule. */
function validEvent(scope: Scope, body: Record<string, unknown>, now: Date) {
  const event = parseOrThrow(eventCreateBody, { ...body, status: "publish" });
  return { body: event, schedule: scheduleOf(event, undefined, scope.site.timezone, now) };
}

/** A recurring master's series, checked and expanded as `POST /events` with `recurrence` does it. */
function plannedSeries(scope: Scope, rule: ImportedRule, limits: SeriesLimits, now: Date): PlannedSeries {
  const master = validEvent(scope, rule.master, now);
  return {
    plan: planSeries(rule.lines, master.schedule, limits, now),
    master: master.body,
    schedule: master.schedule,
    exceptions: rule.exceptions.map((exception) => ({
      recurrenceId: exception.recurrenceId,
      overrides: exception.overrides,
      ...validEvent(scope, exception.body, now),
    })),
  };
}

/** The series whose every occurrence is a valid event; the others are skipped with the first reason found. */
function validSeries(
  scope: Scope,
  parsed: ImportedSeries[],
  skipped: ImportSkip[],
  context: { limits: SeriesLimits; uidHost: string },
): ValidSeries[] {
  const now = new Date();
  return parsed.flatMap((series) => {
    try {
      const events = series.occurrences.map((occurrence) => validEvent(scope, occurrence.body, now));
      const bodies = events.map((event) => event.body);
      const schedules = events.map((event) => event.schedule);
      const planned = series.rule ? plannedSeries(scope, series.rule, context.limits, now) : undefined;
      return [{ series, bodies, schedules, planned, ownId: ownEventId(series.uid, context.uidHost) }];
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const params = error.extra.params ? ` (${Object.keys(error.extra.params as object).join(", ")})` : "";
      skipped.push({ uid: series.uid, reason: `${error.message}${params}` });
      return [];
    }
  });
}

/**
 * `POST /import`: the events of an iCalendar file, created, updated (a newer SEQUENCE or LAST-MODIFIED) or trashed
 * (`STATUS:CANCELLED`, or occurrences a changed series no longer has) to match it, by their UID and RECURRENCE-ID.
 * The whole file is checked against the caps, and every event validated as `POST /events` validates it, before
 * anything is written. The file is then written in batches of whole series, each one transaction: a batch that
 * fails leaves the earlier ones written, and since events are matched by UID and RECURRENCE-ID, importing the file
 * again completes it. A dry run writes the whole file in one transaction, rolls it back and answers what it would
 * have done (with the ids the new events would have had).
 */
export async function importCalendar(scope: Scope, text: string, options: IcalImportOptions): Promise<ImportResult> {
  requireCapability(scope.actor, "edit_others_posts");
  // The parser and its zone tables (windows-iana, the VTIMEZONE files) are loaded at the first import, not at start.
  const { parseCalendarFile } = await import("./ical.parse.ts");
  const parsed = parseCalendarFile(text, {
    siteZone: scope.site.timezone,
    horizonMonths: options.horizonMonths,
    seriesCap: options.seriesCap,
    now: new Date(),
    caps: scope.site.importCaps ?? DEFAULT_IMPORT_CAPS,
  });
  const skipped: ImportSkip[] = [...parsed.skipped];
  const siteLimits = seriesLimitsOf(scope.site);
  const limits = {
    horizonMonths: options.horizonMonths,
    maxOccurrences: Math.min(options.seriesCap, siteLimits.maxOccurrences),
  };
  const uidHost = await eventUidHost(scope, options.publicHost);
  const valid = validSeries(scope, parsed.series, skipped, { limits, uidHost });
  if (options.dryRun) return dryRun(scope, valid, skipped);
  return writeInBatches(scope, valid, emptyResult(skipped, valid));
}

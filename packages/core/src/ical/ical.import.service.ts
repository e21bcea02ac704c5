import { requireCapability } from "../auth/capabilities.ts";
import type { Tx } from "../db/db.ts";
import { runWrite } from "../db/write.ts";
import { DomainError, parseOrThrow } from "../errors.ts";
import { scheduleOf } from "../events/event.dates.ts";
import { eventCreateBody } from "../events/event.schemas.ts";
import type { Scope } from "../scope.ts";
import { planSeries, seriesLimitsOf } from "../series/series.create.ts";
import type { SeriesLimits } from "../series/series.limits.ts";
import { rejectNulCharacters } from "../trpc/nul-characters.ts";
import { eventUidHost, ownEventId } from "./ical.identity.ts";
import { DEFAULT_IMPORT_CAPS, type ImportResult } from "./ical.import.schemas.ts";
import { importedAsEvents, type PlannedSeries, writeKeptSeries } from "./ical.import.series.ts";
import { importSlices } from "./ical.import.slices.ts";
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

/**
 * The most events written per transaction; on SQLite, whose synchronous driver holds the event loop for the whole
 * transaction, a transaction also ends once it has run a slice's time. A series is never split, so a transaction
 * holds at least one whole series.
 */
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

/**
 * Writes the series from `from` on into `result` (within the caller's transaction), with one change per event
 * written, until `enough` says so after a series (it is given the events written so far); answers where it stopped.
 */
async function writeFrom(
  tx: Tx,
  scope: Scope,
  valid: readonly ValidSeries[],
  { from, result, enough }: { from: number; result: ImportResult; enough: (events: number) => Promise<boolean> },
): Promise<number> {
  const written: WrittenEvents = { created: [], updated: [] };
  let next = from;
  let events = 0;
  for (const item of valid.slice(from)) {
    const write = { tx, scope, now: new Date(), result };
    const { planned } = item;
    if (planned && !(await importedAsEvents(tx, scope.language, item.series.uid))) {
      await writeKeptSeries(write, item.series, planned);
    } else await writeEvents(write, item, written);
    next += 1;
    events += item.bodies.length;
    if (await enough(events)) break;
  }
  await recordWritten(tx, written);
  return next;
}

/** Batches of whole series, each in its own transaction; the ids and counts of every batch, in order. */
async function writeInBatches(scope: Scope, valid: readonly ValidSeries[], result: ImportResult) {
  let from = 0;
  while (from < valid.length) {
    const started = performance.now();
    const slice = importSlices();
    const holdsLoop = scope.provider === "sqlite";
    const batch = await runWrite(scope.db, async (tx) => {
      const partial = emptyResult([], []);
      const enough = async (events: number) => events >= IMPORT_BATCH_EVENTS || (holdsLoop && slice.due());
      return { partial, next: await writeFrom(tx, scope, valid, { from, result: partial, enough }) };
    });
    result.created.push(...batch.partial.created);
    result.updated.push(...batch.partial.updated);
    result.unchanged += batch.partial.unchanged;
    result.skipped.push(...batch.partial.skipped);
    from = batch.next;
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
        // One transaction gives the event loop back between its slices (its writes stay invisible to reads).
        const slices = importSlices();
        const enough = async () => {
          await slices.pause();
          return false;
        };
        await writeFrom(tx, scope, valid, { from: 0, result, enough });
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

/**
 * The series whose every occurrence is a valid event; the others are skipped with the first reason found. Checked
 * in time slices.
 */
async function validSeries(
  scope: Scope,
  parsed: ImportedSeries[],
  skipped: ImportSkip[],
  context: { limits: SeriesLimits; uidHost: string },
): Promise<ValidSeries[]> {
  const now = new Date();
  const slices = importSlices();
  const valid: ValidSeries[] = [];
  for (const series of parsed) {
    try {
      const events = series.occurrences.map((occurrence) => validEvent(scope, occurrence.body, now));
      const bodies = events.map((event) => event.body);
      const schedules = events.map((event) => event.schedule);
      const planned = series.rule ? plannedSeries(scope, series.rule, context.limits, now) : undefined;
      valid.push({ series, bodies, schedules, planned, ownId: ownEventId(series.uid, context.uidHost) });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const params = error.extra.params ? ` (${Object.keys(error.extra.params as object).join(", ")})` : "";
      skipped.push({ uid: series.uid, reason: `${error.message}${params}` });
    }
    await slices.pause();
  }
  return valid;
}

/**
 * `POST /import`: the events of an iCalendar file, created, updated (a newer SEQUENCE or LAST-MODIFIED) or trashed
 * (`STATUS:CANCELLED`, or occurrences a changed series no longer has) to match it, by their UID and RECURRENCE-ID.
 * The whole file is checked against the caps, and every event validated as `POST /events` validates it, before
 * anything is written (in time slices that give the event loop back). The file is then written in batches of whole
 * series, each one transaction of at most 50 events (and, on SQLite, one slice's time): a batch that fails leaves
 * the earlier ones written, and since events are matched by UID and RECURRENCE-ID, importing the file again
 * completes it. A dry run writes the whole file in one transaction (giving the loop back between slices), rolls it
 * back and answers what it would have done (with the ids the new events would have had). A file holding U+0000 anywhere is a 400 naming
 * `calendar`, as any input holding it is.
 */
export async function importCalendar(scope: Scope, text: string, options: IcalImportOptions): Promise<ImportResult> {
  // The file is input as a procedure's `calendar` is (the REST route and the CLI pass it here unchecked).
  rejectNulCharacters({ calendar: text });
  requireCapability(scope.actor, "edit_others_posts");
  // The parser and its zone tables (windows-iana, the VTIMEZONE files) are loaded at the first import, not at start.
  const { parseCalendarFile } = await import("./ical.parse.ts");
  const parsed = await parseCalendarFile(text, {
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
  const valid = await validSeries(scope, parsed.series, skipped, { limits, uidHost });
  if (options.dryRun) return dryRun(scope, valid, skipped);
  return writeInBatches(scope, valid, emptyResult(skipped, valid));
}

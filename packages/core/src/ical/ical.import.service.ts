import { requireCapability } from "../auth/capabilities.ts";
import type { Tx } from "../db/db.ts";
import { runWrite } from "../db/write.ts";
import { DomainError, parseOrThrow } from "../errors.ts";
import { scheduleOf } from "../events/event.dates.ts";
import { eventCreateBody } from "../events/event.schemas.ts";
import type { Scope } from "../scope.ts";
import type { ImportResult } from "./ical.import.schemas.ts";
import { writeSeries } from "./ical.import.write.ts";
import { type ImportSkip, parseCalendarFile } from "./ical.parse.ts";

export interface IcalImportOptions {
  dryRun: boolean;
  /** How far recurring series are expanded, in months from the later of their start and today. */
  horizonMonths: number;
  /** The most occurrences of one series. */
  seriesCap: number;
}

/** A large file takes more than a request's transaction time. */
const IMPORT_WRITE = { timeout: 300_000 };

class DryRun extends Error {
  constructor(readonly result: ImportResult) {
    super("dry run");
  }
}

/**
 * `POST /import`: the events of an iCalendar file, created, updated (a newer SEQUENCE or LAST-MODIFIED) or trashed
 * (`STATUS:CANCELLED`, or occurrences a changed series no longer has) to match it, by their UID and RECURRENCE-ID.
 * Every event is validated as `POST /events` validates it; one transaction for the whole file; a dry run rolls
 * it back and answers what it would have done (with the ids the new events would have had).
 */
export async function importCalendar(scope: Scope, text: string, options: IcalImportOptions): Promise<ImportResult> {
  requireCapability(scope.actor, "edit_others_posts");
  const parsed = parseCalendarFile(text, {
    siteZone: scope.site.timezone,
    horizonMonths: options.horizonMonths,
    seriesCap: options.seriesCap,
    now: new Date(),
  });
  const skipped: ImportSkip[] = [...parsed.skipped];
  const now = new Date();
  const valid = parsed.series.flatMap((series) => {
    try {
      const bodies = series.occurrences.map((occurrence) =>
        parseOrThrow(eventCreateBody, { ...occurrence.body, status: "publish" }),
      );
      const schedules = bodies.map((body) => scheduleOf(body, undefined, scope.site.timezone, now));
      return [{ series, bodies, schedules }];
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const params = error.extra.params ? ` (${Object.keys(error.extra.params as object).join(", ")})` : "";
      skipped.push({ uid: series.uid, reason: `${error.message}${params}` });
      return [];
    }
  });
  const work = async (tx: Tx) => {
    const result: ImportResult = {
      created: [],
      updated: [],
      unchanged: 0,
      skipped,
      series: valid.filter(({ series }) => series.recurring).length,
    };
    for (const { series, bodies, schedules } of valid) {
      await writeSeries(tx, scope, series, bodies, schedules, result);
    }
    if (options.dryRun) throw new DryRun(result);
    return result;
  };
  try {
    return await runWrite(scope.db, work, IMPORT_WRITE);
  } catch (error) {
    if (error instanceof DryRun) return error.result;
    throw error;
  }
}

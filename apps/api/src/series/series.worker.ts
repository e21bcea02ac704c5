import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  acquireSeriesLease,
  type DbHandle,
  extendSeriesHorizons,
  type HorizonReport,
  hasSeriesBelowHorizon,
  releaseSeriesLease,
  type SeriesLimits,
} from "@calendar/core";
import type { FastifyBaseLogger } from "fastify";

/** The series worker's settings. */
export interface SeriesWorkerOptions {
  /** Milliseconds between two extensions of the horizons (a day in production). */
  intervalMs: number;
  /** The clock the horizon is measured from (tests move it). */
  now?: () => Date;
  /** Milliseconds a shutdown waits for the extension in progress. */
  shutdownGraceMs?: number;
}

export interface SeriesWorker {
  /** The outcome of the latest run once it is over: its report, or null when another process held the lease. */
  settled(): Promise<HorizonReport | null>;
  /** Stops the runs and waits up to the grace period for the one in progress. */
  stop(): Promise<void>;
}

/** How long a run may hold the lease: far longer than extending every series takes. */
const LEASE_MS = 10 * 60 * 1000;

/**
 * The series worker of one server process (docs/behaviour.md, "The horizon"): at start and then every
 * `intervalMs`, the holder of the series lease creates the occurrences that came within the horizon; of all
 * processes on the database, one at a time does.
 */
export function startSeriesWorker(
  handle: DbHandle,
  limits: SeriesLimits,
  options: SeriesWorkerOptions,
  log: FastifyBaseLogger,
): SeriesWorker {
  const { db } = handle;
  const holder = randomUUID();
  const now = options.now ?? (() => new Date());
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<HorizonReport | null> = Promise.resolve(null);
  // Releasing a lease never taken would change nothing, and would load Prisma's query compiler on the way out.
  let everHeld = false;

  async function run(): Promise<HorizonReport | null> {
    const at = now();
    // Most runs find every horizon far enough: a read then, not the lease's write.
    if (!(await hasSeriesBelowHorizon(db, at, limits))) return { extended: 0, created: 0, failed: [] };
    if (!(await acquireSeriesLease(db, holder, LEASE_MS))) return null;
    everHeld = true;
    const report = await extendSeriesHorizons(db, at, limits);
    if (report.failed.length)
      log.warn(
        { series: report.failed },
        "series whose rule no longer expands were marked and are left alone until edited",
      );
    if (report.created) log.info({ series: report.extended, created: report.created }, "series horizons extended");
    return report;
  }

  const loop = async () => {
    running = run().catch((error: unknown) => {
      log.error({ err: error }, "series worker failed; retrying at its next run");
      return null;
    });
    await running;
    if (!stopped) timer = setTimeout(loop, options.intervalMs);
  };
  // The first run starts at once, so that `settled` answers for it.
  void loop();

  return {
    settled: () => running,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.race([running, sleep(options.shutdownGraceMs ?? 5_000)]);
      if (everHeld) await releaseSeriesLease(db, holder).catch(() => undefined);
    },
  };
}

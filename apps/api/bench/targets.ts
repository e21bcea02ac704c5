import type { ScenarioResult } from "./report.ts";

/**
 * Issue 12's targets, and their verdict on a run: ratio to the fair limit (the lowest over the sizes measured),
 * p99 (the highest over the sizes it applies to), and the CPU time per request at 100,000 events against 1,000.
 * REST rows only; tRPC is checked against REST separately.
 */

export interface Target {
  scenarios: string[];
  /** Lowest API req/s as a share of the limit's. */
  ratio?: number;
  /** Highest p99 in ms, at every size or only at `p99At` events. */
  p99?: number;
  p99At?: number;
  /** Highest CPU ms/req at 100,000 events as a multiple of 1,000 events'. */
  flat?: number;
}

export const TARGETS: Target[] = [
  { scenarios: ["event single (by id)", "event single (by slug)"], ratio: 0.25, p99: 10, flat: 1.2 },
  {
    scenarios: ["events list (default)", "events list (categories, tags, dates)"],
    ratio: 0.4,
    p99: 25,
    flat: 1.3,
  },
  { scenarios: ["events list (search)", "events list (near a point)"], ratio: 0.4, p99: 60, p99At: 100_000 },
  { scenarios: ["venues list (search)", "categories list"], ratio: 0.3, p99: 15, flat: 1.3 },
  { scenarios: ["event create"], p99: 40 },
  // The outbox (issue 16) may cost event creation less than 10 % req/s: the limit is the same server without it.
  { scenarios: ["event create (outbox)"], ratio: 0.9 },
  // Issue 15: the feed against its events read by one statement and serialized with the same library.
  { scenarios: ["events feed (ics)"], ratio: 0.6 },
];

export const PEAK_RSS_MB = 150;
/** tRPC's req/s may be at most this much below REST's for the same read. */
export const TRPC_SHORTFALL = 0.1;

export type Verdict = "met" | "missed" | "–";

export interface TargetCheck {
  db: string;
  scenario: string;
  ratio: { value: number | null; target?: number; verdict: Verdict };
  p99: { value: number | null; target?: number; verdict: Verdict };
  flat: { value: number | null; target?: number; verdict: Verdict };
}

const verdict = (value: number | null, target: number | undefined, atLeast: boolean): Verdict => {
  if (value === null || target === undefined) return "–";
  return (atLeast ? value >= target : value <= target) ? "met" : "missed";
};

const extreme = (values: number[], pick: (...values: number[]) => number) => (values.length ? pick(...values) : null);

export function checkTargets(results: readonly ScenarioResult[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const dbs = [...new Set(results.map((result) => result.db))];
  for (const db of dbs) {
    for (const target of TARGETS) {
      for (const scenario of target.scenarios) {
        const rows = results.filter((row) => row.db === db && row.name === scenario && row.transport === "rest");
        if (rows.length === 0) continue;
        const ratio = extreme(
          rows.flatMap((row) => (row.ratio === null ? [] : [row.ratio])),
          Math.min,
        );
        const p99 = extreme(
          rows.filter((row) => target.p99At === undefined || row.events === target.p99At).map((row) => row.p99_ms),
          Math.max,
        );
        const small = rows.find((row) => row.events === 1_000);
        const large = rows.find((row) => row.events === 100_000);
        const flat = small && large && small.cpu_ms > 0 ? large.cpu_ms / small.cpu_ms : null;
        checks.push({
          db,
          scenario,
          ratio: { value: ratio, target: target.ratio, verdict: verdict(ratio, target.ratio, true) },
          p99: { value: p99, target: target.p99, verdict: verdict(p99, target.p99, false) },
          flat: { value: flat, target: target.flat, verdict: verdict(flat, target.flat, false) },
        });
      }
    }
  }
  return checks;
}

/** tRPC rows whose req/s falls more than TRPC_SHORTFALL below REST's for the same read. */
export function trpcShortfalls(results: readonly ScenarioResult[]): string[] {
  return results.flatMap((row) => {
    if (row.transport !== "trpc") return [];
    const rest = results.find(
      (other) =>
        other.transport === "rest" && other.db === row.db && other.events === row.events && other.name === row.name,
    );
    if (!rest || row.rps >= rest.rps * (1 - TRPC_SHORTFALL)) return [];
    return [`${row.db} ${row.events} ${row.name}: tRPC ${row.rps} req/s, REST ${rest.rps}`];
  });
}

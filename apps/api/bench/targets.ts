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

/** Issue 25: the server's RSS one second after it starts, and its peak over the whole run. */
export const STARTUP_RSS_MB = 100;
export const PEAK_RSS_MB = 200;
/** Issue 25: tRPC's CPU time per request may be at most this much above REST's for the same read. */
export const TRPC_CPU_EXCESS = 0.1;

/** Issue 25: the API's CPU ms per request as a multiple of the floor's (the same read through the bare stack). */
export const CPU_OVER_FLOOR: ReadonlyArray<{ scenarios: string[]; most: number }> = [
  {
    scenarios: [
      "events list (default)",
      "events list (categories, tags, dates)",
      "events list (search)",
      "events list (near a point)",
      "venues list (search)",
    ],
    most: 2.0,
  },
  { scenarios: ["event single (by id)", "event single (by slug)", "categories list"], most: 1.5 },
];

/**
 * Issue 25: the p99 at a fixed rate below saturation (`measureSteady`, evenly paced), at the sizes of `STEADY_SIZES`: the latency
 * users see when the server is busy but keeps up.
 */
export const STEADY: ReadonlyArray<{ scenarios: string[]; rate: number; p99: number }> = [
  { scenarios: ["events list (default)", "events list (categories, tags, dates)"], rate: 100, p99: 20 },
  { scenarios: ["event single (by id)", "event single (by slug)"], rate: 400, p99: 5 },
];
export const STEADY_SIZES: readonly number[] = [10_000, 100_000];

/** The steady-load rate of a scenario at a size, or undefined when it has none there. */
export function steadyRateOf(scenario: string, events: number): number | undefined {
  if (!STEADY_SIZES.includes(events)) return undefined;
  return STEADY.find((target) => target.scenarios.includes(scenario))?.rate;
}

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

/** tRPC rows whose CPU ms per request is more than TRPC_CPU_EXCESS above REST's for the same read. */
export function trpcShortfalls(results: readonly ScenarioResult[]): string[] {
  return results.flatMap((row) => {
    if (row.transport !== "trpc") return [];
    const rest = results.find(
      (other) =>
        other.transport === "rest" && other.db === row.db && other.events === row.events && other.name === row.name,
    );
    if (!rest || row.cpu_ms <= rest.cpu_ms * (1 + TRPC_CPU_EXCESS)) return [];
    const excess = ((row.cpu_ms / rest.cpu_ms - 1) * 100).toFixed(0);
    return [`${row.db} ${row.events} ${row.name}: tRPC ${row.cpu_ms} CPU ms/req, REST ${rest.cpu_ms} (+${excess} %)`];
  });
}

export interface Issue25Check {
  db: string;
  scenario: string;
  transport: string;
  overFloor: { value: number | null; target?: number; verdict: Verdict };
  steadyP99: { value: number | null; target?: number; rate?: number; verdict: Verdict };
  /** The floor's own p99 at the same rate (the highest): what the stack leaves of the steady target. */
  floorSteadyP99: number | null;
}

/** Issue 25's per-scenario targets: API ÷ floor (the highest over the sizes) and the steady-load p99 (the highest). */
export function checkIssue25(results: readonly ScenarioResult[]): Issue25Check[] {
  const keys = [...new Set(results.map((row) => `${row.db}\t${row.name}\t${row.transport}`))];
  return keys.flatMap((key) => {
    const [db = "", scenario = "", transport = ""] = key.split("\t");
    const floorTarget = CPU_OVER_FLOOR.find((target) => target.scenarios.includes(scenario));
    const steadyTarget = STEADY.find((target) => target.scenarios.includes(scenario));
    if (!floorTarget && !steadyTarget) return [];
    const rows = results.filter((row) => row.db === db && row.name === scenario && row.transport === transport);
    const overFloor = extreme(
      rows.flatMap((row) => (row.cpu_over_floor === null ? [] : [row.cpu_over_floor])),
      Math.max,
    );
    const highest = (values: ReadonlyArray<number | null>) =>
      extreme(
        values.flatMap((value) => (value === null ? [] : [value])),
        Math.max,
      );
    const steady = highest(rows.map((row) => row.steady_p99_ms));
    return [
      {
        db,
        scenario,
        transport,
        overFloor: {
          value: overFloor,
          target: floorTarget?.most,
          verdict: verdict(overFloor, floorTarget?.most, false),
        },
        steadyP99: {
          value: steady,
          target: steadyTarget?.p99,
          rate: steadyTarget?.rate,
          verdict: verdict(steady, steadyTarget?.p99, false),
        },
        floorSteadyP99: highest(rows.map((row) => row.floor_steady_p99_ms)),
      },
    ];
  });
}

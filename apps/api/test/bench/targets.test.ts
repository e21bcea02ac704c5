import { describe, expect, it } from "vitest";
import type { ScenarioResult } from "../../bench/report.ts";
import { checkIssue25, checkTargets, steadyRateOf, trpcShortfalls } from "../../bench/targets.ts";

function row(overrides: Partial<ScenarioResult>): ScenarioResult {
  return {
    db: "sqlite",
    events: 1_000,
    name: "event single (by id)",
    transport: "rest",
    rps: 1_000,
    p50_ms: 2,
    p99_ms: 5,
    floor_rps: 2_000,
    limit_rps: 3_000,
    ratio: 0.33,
    rss_mb: 120,
    cpu_ms: 1,
    floor_cpu_ms: 0.5,
    limit_cpu_ms: 0.3,
    floor_p99_ms: 3,
    limit_p99_ms: 2,
    floor_rss_mb: 100,
    cpu_over_floor: 2,
    steady_rate: null,
    steady_p99_ms: null,
    floor_steady_p99_ms: null,
    limit_steady_p99_ms: null,
    ...overrides,
  };
}

describe("the benchmark's target checks", () => {
  it("judges a single read by its lowest ratio, highest p99 and CPU at 100,000 events against 1,000", () => {
    const [check] = checkTargets([
      row({ events: 1_000, ratio: 0.3, p99_ms: 4, cpu_ms: 1 }),
      row({ events: 100_000, ratio: 0.24, p99_ms: 9, cpu_ms: 1.1 }),
    ]);
    expect(check).toEqual({
      db: "sqlite",
      scenario: "event single (by id)",
      ratio: { value: 0.24, target: 0.25, verdict: "missed" },
      p99: { value: 9, target: 10, verdict: "met" },
      flat: { value: 1.1, target: 1.2, verdict: "met" },
    });
  });

  it("reads the p99 of search only at 100,000 events and leaves the CPU ratio unjudged without both sizes", () => {
    const [check] = checkTargets([
      row({ name: "events list (search)", events: 10_000, p99_ms: 500 }),
      row({ name: "events list (search)", events: 100_000, p99_ms: 55 }),
    ]);
    expect(check?.p99).toEqual({ value: 55, target: 60, verdict: "met" });
    expect(check?.flat).toEqual({ value: null, target: undefined, verdict: "–" });
  });

  it("names tRPC rows whose CPU per request is more than 10 % above REST's", () => {
    expect(
      trpcShortfalls([
        row({ cpu_ms: 1 }),
        row({ transport: "trpc", cpu_ms: 1.15 }),
        row({ events: 10_000, cpu_ms: 1 }),
        row({ events: 10_000, transport: "trpc", cpu_ms: 1.08 }),
      ]),
    ).toEqual(["sqlite 1000 event single (by id): tRPC 1.15 CPU ms/req, REST 1 (+15 %)"]);
  });

  it("judges issue 25's API ÷ floor and steady p99 by their highest over the sizes, per transport, beside the floor's", () => {
    const checks = checkIssue25([
      row({ events: 1_000, cpu_over_floor: 1.4 }),
      row({ events: 10_000, cpu_over_floor: 1.6, steady_rate: 400, steady_p99_ms: 4, floor_steady_p99_ms: 2.5 }),
      row({ events: 100_000, cpu_over_floor: 1.5, steady_rate: 400, steady_p99_ms: 3, floor_steady_p99_ms: 2.75 }),
      row({
        transport: "trpc",
        events: 10_000,
        cpu_over_floor: 1.45,
        steady_rate: 400,
        steady_p99_ms: 6,
        floor_steady_p99_ms: 2.5,
      }),
      row({ name: "venues list (search)", cpu_over_floor: 1.9 }),
      row({ name: "event create", cpu_over_floor: null }),
    ]);
    expect(checks).toEqual([
      {
        db: "sqlite",
        scenario: "event single (by id)",
        transport: "rest",
        overFloor: { value: 1.6, target: 1.5, verdict: "missed" },
        steadyP99: { value: 4, target: 5, rate: 400, verdict: "met" },
        floorSteadyP99: 2.75,
      },
      {
        db: "sqlite",
        scenario: "event single (by id)",
        transport: "trpc",
        overFloor: { value: 1.45, target: 1.5, verdict: "met" },
        steadyP99: { value: 6, target: 5, rate: 400, verdict: "missed" },
        floorSteadyP99: 2.5,
      },
      {
        db: "sqlite",
        scenario: "venues list (search)",
        transport: "rest",
        overFloor: { value: 1.9, target: 2, verdict: "met" },
        steadyP99: { value: null, target: undefined, rate: undefined, verdict: "–" },
        floorSteadyP99: null,
      },
    ]);
  });

  it("runs the steady load only for the lists and single reads, at 10,000 and 100,000 events", () => {
    expect(steadyRateOf("events list (default)", 10_000)).toBe(100);
    expect(steadyRateOf("event single (by slug)", 100_000)).toBe(400);
    expect(steadyRateOf("event single (by slug)", 1_000)).toBeUndefined();
    expect(steadyRateOf("events list (search)", 10_000)).toBeUndefined();
  });
});

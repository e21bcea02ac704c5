import { describe, expect, it } from "vitest";
import type { ScenarioResult } from "../../bench/report.ts";
import { checkTargets, trpcShortfalls } from "../../bench/targets.ts";

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

  it("names tRPC rows more than 10 % below REST", () => {
    expect(
      trpcShortfalls([
        row({ rps: 1_000 }),
        row({ transport: "trpc", rps: 850 }),
        row({ events: 10_000, rps: 1_000 }),
        row({ events: 10_000, transport: "trpc", rps: 950 }),
      ]),
    ).toEqual(["sqlite 1000 event single (by id): tRPC 850 req/s, REST 1000"]);
  });
});

import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { Provider } from "@calendar/core";
import type { Transport } from "./scenarios.ts";

/** One line of `latest.json` (the shape issue 7 fixes). */
export interface ScenarioResult {
  db: Provider;
  events: number;
  name: string;
  transport: Transport;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  limit_rps: number | null;
  ratio: number | null;
  rss_mb: number;
}

export interface BenchReport {
  date: string;
  cores: number;
  node: string;
  scenarios: ScenarioResult[];
}

/** CPU milliseconds per request of the API and the limit server: shown in the tables, kept out of the JSON. */
export interface CpuCost {
  api: number;
  limit: number | null;
}

/** What the Markdown adds to the JSON: how the run was made. */
export interface RunNotes {
  settings: string;
  seeds: string[];
  failures: string[];
}

export function newReport(): BenchReport {
  return { date: new Date().toISOString(), cores: availableParallelism(), node: process.version, scenarios: [] };
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export function resultOf(
  base: Pick<ScenarioResult, "db" | "events" | "name" | "transport">,
  measured: { rps: number; p50_ms: number; p99_ms: number; rss_mb: number },
  limitRps: number | undefined,
): ScenarioResult {
  return {
    ...base,
    rps: round(measured.rps),
    p50_ms: round(measured.p50_ms, 2),
    p99_ms: round(measured.p99_ms, 2),
    limit_rps: limitRps === undefined ? null : round(limitRps),
    ratio: limitRps === undefined || limitRps === 0 ? null : round(measured.rps / limitRps, 3),
    rss_mb: round(measured.rss_mb),
  };
}

const COLUMNS = [
  "db",
  "events",
  "scenario",
  "transport",
  "req/s",
  "p50 ms",
  "p99 ms",
  "limit req/s",
  "ratio",
  "RSS MB",
  "CPU ms/req",
  "limit CPU ms/req",
];

function cells(result: ScenarioResult, cpu: CpuCost | undefined): string[] {
  return [
    result.db,
    String(result.events),
    result.name,
    result.transport,
    result.rps.toFixed(0),
    result.p50_ms.toFixed(2),
    result.p99_ms.toFixed(2),
    result.limit_rps === null ? "–" : result.limit_rps.toFixed(0),
    result.ratio === null ? "–" : `${(result.ratio * 100).toFixed(0)} %`,
    result.rss_mb.toFixed(0),
    cpu ? cpu.api.toFixed(3) : "–",
    cpu?.limit == null ? "–" : cpu.limit.toFixed(3),
  ];
}

/** A fixed-width table for the terminal. */
export function textTable(results: readonly ScenarioResult[], costs: ReadonlyMap<ScenarioResult, CpuCost>): string {
  const rows = [COLUMNS, ...results.map((result) => cells(result, costs.get(result)))];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ")).join("\n");
}

function markdownTable(results: readonly ScenarioResult[], costs: ReadonlyMap<ScenarioResult, CpuCost>): string {
  const line = (row: string[]) => `| ${row.join(" | ")} |`;
  const body = results.map((result) => line(cells(result, costs.get(result))));
  return [line(COLUMNS), line(COLUMNS.map(() => "---")), ...body].join("\n");
}

export function markdown(report: BenchReport, notes: RunNotes, costs: ReadonlyMap<ScenarioResult, CpuCost>): string {
  return [
    "# Benchmark results",
    "",
    `${report.date} · ${report.cores} cores · Node ${report.node}`,
    "",
    notes.settings,
    "",
    "`ratio` is the API's req/s as a share of the limit's (a bare Fastify route answering the same request with the same rows from one hand-written SQL query); `RSS MB` is the server's peak resident set size during the run; `CPU ms/req` is the server process's CPU time per request (user + system), which other load on the machine hardly changes.",
    "",
    markdownTable(report.scenarios, costs),
    "",
    ...(notes.seeds.length ? ["Seeding:", "", ...notes.seeds.map((seed) => `- ${seed}`), ""] : []),
    ...(notes.failures.length
      ? [
          "Failures (failed requests make a measurement invalid; a database that could not be prepared has none):",
          "",
          ...notes.failures.map((line) => `- ${line}`),
          "",
        ]
      : []),
  ].join("\n");
}

/** Writes `<stamp>.json`/`.md`, and `latest.json`/`.md` when the run covers the whole matrix. */
export function writeReport(
  dir: string,
  report: BenchReport,
  notes: RunNotes,
  costs: ReadonlyMap<ScenarioResult, CpuCost>,
  latest: boolean,
): string[] {
  mkdirSync(dir, { recursive: true });
  const stamp = report.date.replace(/[:.]/g, "-");
  const names = [stamp, ...(latest ? ["latest"] : [])];
  for (const name of names) {
    writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(dir, `${name}.md`), `${markdown(report, notes, costs)}\n`);
  }
  return names.map((name) => join(dir, `${name}.{json,md}`));
}

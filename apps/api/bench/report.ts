import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { Provider } from "@calendar/core";
import type { SteadyMeasured } from "./load.ts";
import type { Transport } from "./scenarios.ts";
import {
  checkIssue25,
  checkTargets,
  type Issue25Check,
  PEAK_RSS_MB,
  STARTUP_RSS_MB,
  type TargetCheck,
  TRPC_CPU_EXCESS,
  trpcShortfalls,
} from "./targets.ts";

/**
 * One line of `latest.json`: the shape issue 7 fixed, with issue 12's additions (the stack floor's req/s and the
 * CPU time per request of the API, the floor and the limit).
 */
export interface ScenarioResult {
  db: Provider;
  events: number;
  name: string;
  transport: Transport;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  floor_rps: number | null;
  limit_rps: number | null;
  ratio: number | null;
  rss_mb: number;
  cpu_ms: number;
  floor_cpu_ms: number | null;
  limit_cpu_ms: number | null;
  /** The references' own p99: a p99 target below the floor's cannot be met by anything served through our stack. */
  floor_p99_ms: number | null;
  limit_p99_ms: number | null;
  /** The floor's peak RSS: what the stack itself (Node, Fastify, tRPC, trpc-to-openapi, Prisma) holds under load. */
  floor_rss_mb: number | null;
  /** Issue 25: the API's CPU ms per request as a multiple of the floor's: the cost of our own code. */
  cpu_over_floor: number | null;
  /** Issue 25: the p99 at a fixed rate below saturation (req/s), for the scenarios that have one at this size. */
  steady_rate: number | null;
  steady_p99_ms: number | null;
  /** The references' p99 at the same steady rate: a steady target below the floor's is out of the stack's reach. */
  floor_steady_p99_ms: number | null;
  limit_steady_p99_ms: number | null;
}

/** Issue 25: the server's RSS when it starts answering and one second later, on a database of `events` events (0: a new, empty one). */
export interface StartupResult {
  db: Provider;
  events: number;
  listening_mb: number;
  after_one_second_mb: number;
}

export interface BenchReport {
  date: string;
  cores: number;
  node: string;
  startup: StartupResult[];
  scenarios: ScenarioResult[];
}

/** What the Markdown adds to the JSON: how the run was made. */
export interface RunNotes {
  settings: string;
  seeds: string[];
  failures: string[];
}

export function newReport(): BenchReport {
  return {
    date: new Date().toISOString(),
    cores: availableParallelism(),
    node: process.version,
    startup: [],
    scenarios: [],
  };
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

interface Run {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  rss_mb: number;
  cpu_ms: number;
}

/** A scenario's line from the API's run and, for reads, the floor's and the limit's runs of the same request. */
export function resultOf(
  base: Pick<ScenarioResult, "db" | "events" | "name" | "transport">,
  measured: Run,
  references: { floor: Run; limit: Run } | undefined,
  steady?: { api: SteadyMeasured; floor: SteadyMeasured; limit: SteadyMeasured },
): ScenarioResult {
  const limitRps = references?.limit.rps;
  return {
    ...base,
    rps: round(measured.rps),
    p50_ms: round(measured.p50_ms, 2),
    p99_ms: round(measured.p99_ms, 2),
    floor_rps: references ? round(references.floor.rps) : null,
    limit_rps: limitRps === undefined ? null : round(limitRps),
    ratio: limitRps === undefined || limitRps === 0 ? null : round(measured.rps / limitRps, 3),
    rss_mb: round(measured.rss_mb),
    cpu_ms: round(measured.cpu_ms, 3),
    floor_cpu_ms: references ? round(references.floor.cpu_ms, 3) : null,
    limit_cpu_ms: references ? round(references.limit.cpu_ms, 3) : null,
    floor_p99_ms: references ? round(references.floor.p99_ms, 2) : null,
    limit_p99_ms: references ? round(references.limit.p99_ms, 2) : null,
    floor_rss_mb: references ? round(references.floor.rss_mb) : null,
    cpu_over_floor: references?.floor.cpu_ms ? round(measured.cpu_ms / references.floor.cpu_ms, 2) : null,
    steady_rate: steady ? steady.api.rate : null,
    steady_p99_ms: steady ? round(steady.api.p99_ms, 2) : null,
    floor_steady_p99_ms: steady ? round(steady.floor.p99_ms, 2) : null,
    limit_steady_p99_ms: steady ? round(steady.limit.p99_ms, 2) : null,
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
  "floor req/s",
  "limit req/s",
  "ratio",
  "floor ratio",
  "RSS MB",
  "CPU ms/req",
  "floor CPU ms/req",
  "limit CPU ms/req",
  "floor p99 ms",
  "limit p99 ms",
  "floor RSS MB",
  "API ÷ floor CPU",
  "steady req/s",
  "steady p99 ms",
  "floor steady p99 ms",
  "limit steady p99 ms",
];

const percent = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(0)} %`);
const fixed = (value: number | null, digits: number) => (value === null ? "–" : value.toFixed(digits));

function cells(result: ScenarioResult): string[] {
  const floorRatio =
    result.floor_rps === null || !result.limit_rps ? null : round(result.floor_rps / result.limit_rps, 3);
  return [
    result.db,
    String(result.events),
    result.name,
    result.transport,
    result.rps.toFixed(0),
    result.p50_ms.toFixed(2),
    result.p99_ms.toFixed(2),
    fixed(result.floor_rps, 0),
    fixed(result.limit_rps, 0),
    percent(result.ratio),
    percent(floorRatio),
    result.rss_mb.toFixed(0),
    result.cpu_ms.toFixed(3),
    fixed(result.floor_cpu_ms, 3),
    fixed(result.limit_cpu_ms, 3),
    fixed(result.floor_p99_ms, 2),
    fixed(result.limit_p99_ms, 2),
    fixed(result.floor_rss_mb, 0),
    result.cpu_over_floor === null ? "–" : `${result.cpu_over_floor.toFixed(2)}×`,
    fixed(result.steady_rate, 0),
    fixed(result.steady_p99_ms, 2),
    fixed(result.floor_steady_p99_ms, 2),
    fixed(result.limit_steady_p99_ms, 2),
  ];
}

function aligned(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ")).join("\n");
}

/** A fixed-width table for the terminal. */
export function textTable(results: readonly ScenarioResult[]): string {
  return aligned([COLUMNS, ...results.map(cells)]);
}

const line = (row: string[]) => `| ${row.join(" | ")} |`;

function markdownTable(header: string[], rows: string[][]): string {
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

const TARGET_COLUMNS = ["db", "scenario (REST)", "ratio (lowest)", "p99 ms (highest)", "CPU 100k ÷ 1k"];

function judged(value: string, check: { target?: number; verdict: string }, target: string): string {
  return check.target === undefined ? value : `${value} (${target}: ${check.verdict})`;
}

function targetCells(check: TargetCheck): string[] {
  return [
    check.db,
    check.scenario,
    judged(percent(check.ratio.value), check.ratio, `≥ ${percent(check.ratio.target ?? null)}`),
    judged(fixed(check.p99.value, 1), check.p99, `≤ ${check.p99.target}`),
    judged(check.flat.value === null ? "–" : `${check.flat.value.toFixed(2)}×`, check.flat, `≤ ${check.flat.target}×`),
  ];
}

const ISSUE_25_COLUMNS = [
  "db",
  "scenario",
  "transport",
  "API ÷ floor CPU (highest)",
  "steady p99 ms (highest)",
  "floor steady p99 ms (highest)",
];

function issue25Cells(check: Issue25Check): string[] {
  const overFloor = check.overFloor.value === null ? "–" : `${check.overFloor.value.toFixed(2)}×`;
  const steadyTarget = `≤ ${check.steadyP99.target} ms at ${check.steadyP99.rate} req/s`;
  return [
    check.db,
    check.scenario,
    check.transport,
    judged(overFloor, check.overFloor, `≤ ${check.overFloor.target}×`),
    judged(fixed(check.steadyP99.value, 1), check.steadyP99, steadyTarget),
    fixed(check.floorSteadyP99, 1),
  ];
}

const STARTUP_COLUMNS = ["db", "events", "RSS MB when answering", "RSS MB one second later"];

function startupCells(startup: StartupResult): string[] {
  const met = startup.after_one_second_mb <= STARTUP_RSS_MB ? "met" : "missed";
  return [
    startup.db,
    startup.events === 0 ? "empty" : String(startup.events),
    startup.listening_mb.toFixed(0),
    `${startup.after_one_second_mb.toFixed(0)} (≤ ${STARTUP_RSS_MB}: ${met})`,
  ];
}

/** The memory and transport verdicts of issue 25, one line each. */
function summaryLines(report: Pick<BenchReport, "startup" | "scenarios">): string[] {
  const peak = Math.max(0, ...report.scenarios.map((result) => result.rss_mb));
  const shortfalls = trpcShortfalls(report.scenarios);
  return [
    `peak server RSS over the run ${peak.toFixed(0)} MB (≤ ${PEAK_RSS_MB} MB: ${peak <= PEAK_RSS_MB ? "met" : "missed"})`,
    `tRPC CPU ms/req within ${TRPC_CPU_EXCESS * 100} % of REST's: ${shortfalls.length ? `missed (${shortfalls.join("; ")})` : "met"}`,
  ];
}

/** The targets against the run: issue 12's table, then issue 25's (start-up RSS, API ÷ floor, steady p99, peak). */
export function targetLines(report: Pick<BenchReport, "startup" | "scenarios">): string[] {
  return [
    aligned([TARGET_COLUMNS, ...checkTargets(report.scenarios).map(targetCells)]),
    "",
    aligned([STARTUP_COLUMNS, ...report.startup.map(startupCells)]),
    "",
    aligned([ISSUE_25_COLUMNS, ...checkIssue25(report.scenarios).map(issue25Cells)]),
    "",
    ...summaryLines(report),
  ];
}

export function markdown(report: BenchReport, notes: RunNotes): string {
  return [
    "# Benchmark results",
    "",
    `${report.date} · ${report.cores} cores · Node ${report.node}`,
    "",
    notes.settings,
    "",
    "`ratio` is the API's req/s as a share of the limit's: a bare Fastify route answering the same request with one hand-written SQL statement that returns everything the response is made of, as JSON built by the database (`bench/limit.statements.ts`). The *floor* is the same statement served through the project's own server and REST path (a trivial procedure under trpc-to-openapi, `bench/floor-server.ts`): `floor ratio` is what the framework leaves of the limit, the gap between the API and the floor is the API's own code. `RSS MB` is the server's peak resident set size during the run; `CPU ms/req` is the server process's CPU time per request (user + system), which other load on the machine hardly changes. `floor p99 ms` and `limit p99 ms` are the references' own p99 under the same load: a p99 target below the floor's is out of reach of anything served through trpc-to-openapi. `floor RSS MB` is the floor server's peak resident set size: what the stack holds without our code. `floor steady p99 ms` and `limit steady p99 ms` are the references' p99 under the same steady load as `steady p99 ms`.",
    "",
    markdownTable(COLUMNS, report.scenarios.map(cells)),
    "",
    "## Targets (issue 12)",
    "",
    "Ratio: the lowest over the sizes measured; p99: the highest over the sizes it applies to (search and near a point: 100,000 events only); CPU 100k ÷ 1k: CPU ms per request at 100,000 events against 1,000 (– when the run lacks either size).",
    "",
    markdownTable(TARGET_COLUMNS, checkTargets(report.scenarios).map(targetCells)),
    "",
    "## Targets (issue 25)",
    "",
    "Start-up: the production server's RSS on each database before any request (`bench/startup-memory.ts`).",
    "",
    markdownTable(STARTUP_COLUMNS, report.startup.map(startupCells)),
    "",
    "API ÷ floor: the API's CPU ms per request over the floor's for the same request (the highest over the sizes). Steady p99: one request every 1/rate seconds whether or not the earlier ones were answered, each timed from when it was due (`bench/paced-load.ts`), for 10,000 and 100,000 events, the highest; the floor's (and, in the table above, the limit's) at the same rate beside it: a steady p99 target below the floor's is out of reach of anything served through the stack.",
    "",
    markdownTable(ISSUE_25_COLUMNS, checkIssue25(report.scenarios).map(issue25Cells)),
    "",
    ...summaryLines(report).map((line) => `- ${line}.`),
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
export function writeReport(dir: string, report: BenchReport, notes: RunNotes, latest: boolean): string[] {
  mkdirSync(dir, { recursive: true });
  const stamp = report.date.replace(/[:.]/g, "-");
  const names = [stamp, ...(latest ? ["latest"] : [])];
  for (const name of names) {
    writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(dir, `${name}.md`), `${markdown(report, notes)}\n`);
  }
  return names.map((name) => join(dir, `${name}.{json,md}`));
}

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Provider } from "@calendar/core";
import { cacheScenarios } from "./cache-scenarios.ts";
import { benchToken, emptyDatabase, prepareDatabase } from "./databases.ts";
import { icalScenarios } from "./ical-scenarios.ts";
import { type LoadSettings, measure, measureSteady } from "./load.ts";
import { startServer } from "./processes.ts";
import {
  newReport,
  type RunNotes,
  resultOf,
  type ScenarioResult,
  type StartupResult,
  targetLines,
  textTable,
  writeReport,
} from "./report.ts";
import { readFixtures, readScenarios, type Transport, writeScenarios } from "./scenarios.ts";
import { startupRss } from "./startup-memory.ts";
import { steadyRateOf } from "./targets.ts";

/**
 * `pnpm bench`: issue 7's benchmark, with issue 12's references. For each database and size: seed (through the
 * CLI), start the production build of the server, of the limit server and of the stack floor, and drive each
 * scenario with autocannon from this process (warm-up, then a measured run), limit, floor and API one after the
 * other. Prints a table and the targets' verdicts, writes JSON and Markdown to `bench/results/` (`latest.*` when
 * the whole matrix ran).
 *
 * Options: --quick (10,000 events, SQLite, 3 s per scenario), --db sqlite,postgres, --events 1000,10000,100000,
 * --seconds N, --warmup N, --connections N, --reuse (keep seeded databases), --only <text> (scenario names),
 * --profile (the API server, and the cache scenarios' server as cached-server.cpuprofile, write CPU profiles to
 * bench/results/profiles).
 */

const API_DIR = fileURLToPath(new URL("..", import.meta.url));
const RESULTS_DIR = join(API_DIR, "bench", "results");
const ALL_PROVIDERS: Provider[] = ["sqlite", "postgres"];
const ALL_SIZES = [1_000, 10_000, 100_000];

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    db: { type: "string" },
    events: { type: "string" },
    seconds: { type: "string" },
    warmup: { type: "string" },
    connections: { type: "string", default: "10" },
    reuse: { type: "boolean", default: false },
    only: { type: "string" },
    profile: { type: "boolean", default: false },
  },
});

const providers = (args.db?.split(",") ?? (args.quick ? ["sqlite"] : ALL_PROVIDERS)) as Provider[];
const sizes = args.events?.split(",").map(Number) ?? (args.quick ? [10_000] : ALL_SIZES);
const settings: LoadSettings = {
  connections: Number(args.connections),
  seconds: Number(args.seconds ?? (args.quick ? 3 : 10)),
  warmupSeconds: Number(args.warmup ?? (args.quick ? 1 : 2)),
};
const fullMatrix =
  !args.quick &&
  !args.only &&
  ALL_PROVIDERS.every((provider) => providers.includes(provider)) &&
  ALL_SIZES.every((size) => sizes.includes(size));

function build(): void {
  const started = performance.now();
  const result = spawnSync("pnpm", ["exec", "tsdown"], { cwd: API_DIR, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`The production build failed:\n${result.stdout}${result.stderr}`);
  console.error(
    `Built dist/main.mjs, dist/limit-server.mjs and dist/floor-server.mjs in ${((performance.now() - started) / 1000).toFixed(1)}s.`,
  );
}

const wanted = (name: string) => !args.only || name.includes(args.only);

/** The environment of every server the bench starts on the database at `url`. */
function serverEnv(url: string) {
  return {
    NODE_ENV: "production",
    DATABASE_URL: url,
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    CALENDAR_RATE_LIMIT: "0",
    CALENDAR_TIMEZONE: "UTC",
    // The durability setting under measurement (`full` by default), e.g. CALENDAR_SQLITE_SYNCHRONOUS=normal pnpm bench.
    ...(process.env.CALENDAR_SQLITE_SYNCHRONOUS
      ? { CALENDAR_SQLITE_SYNCHRONOUS: process.env.CALENDAR_SQLITE_SYNCHRONOUS }
      : {}),
    // The scenarios measure the cold paths; the cache scenarios below run a server of their own with it on.
    CALENDAR_CACHE_MB: "0",
  };
}

/** The production server's RSS when it starts answering on the database and one second later. */
async function startupOf(provider: Provider, events: number, env: Record<string, string>): Promise<StartupResult> {
  const rss = await startupRss(env.DATABASE_URL ?? "", env);
  const startup = {
    db: provider,
    events,
    listening_mb: Math.round(rss.listeningMb),
    after_one_second_mb: Math.round(rss.afterOneSecondMb),
  };
  console.log(
    `${provider}, ${events} events: RSS ${startup.listening_mb} MB answering, ${startup.after_one_second_mb} MB a second later`,
  );
  return startup;
}

async function benchmark(
  provider: Provider,
  events: number,
  notes: RunNotes,
): Promise<{ startup: StartupResult; scenarios: ScenarioResult[] }> {
  const database = await prepareDatabase(provider, events, args.reuse);
  if (database.seedSeconds !== undefined) {
    notes.seeds.push(`${provider}, ${events} events: ${database.seedSeconds.toFixed(1)} s (the whole CLI command)`);
  }
  const fixtures = await readFixtures(database.url, await benchToken(database.url));
  const env = serverEnv(database.url);
  const startup = await startupOf(provider, events, env);
  const profileDir = join(RESULTS_DIR, "profiles");
  if (args.profile) mkdirSync(profileDir, { recursive: true });
  const api = await startServer(
    join(API_DIR, "dist", "main.mjs"),
    env,
    "/readyz",
    args.profile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
  );
  const limit = await startServer(join(API_DIR, "dist", "limit-server.mjs"), env, "/cal/events/v1/categories");
  const floor = await startServer(join(API_DIR, "dist", "floor-server.mjs"), env, "/cal/events/v1/categories");
  const results: ScenarioResult[] = [];
  const record = (result: ScenarioResult, failures: number) => {
    results.push(result);
    if (failures > 0) notes.failures.push(`${provider} ${events} ${result.name} (${result.transport}): ${failures}`);
    console.log(textTable([result]).split("\n")[1]);
  };
  try {
    for (const scenario of [...(await readScenarios(fixtures)), ...icalScenarios()]) {
      if (!wanted(scenario.name)) continue;
      const limitRun = await measure(limit.origin, limit.pid, scenario.rest, settings);
      const floorRun = await measure(floor.origin, floor.pid, scenario.rest, settings);
      const rate = steadyRateOf(scenario.name, events);
      const referencesSteady =
        rate === undefined
          ? undefined
          : {
              floor: await measureSteady(floor.origin, scenario.rest, rate, settings.seconds),
              limit: await measureSteady(limit.origin, scenario.rest, rate, settings.seconds),
            };
      const transports: Array<[Transport, typeof scenario.rest]> = [
        ["rest", scenario.rest],
        ...(scenario.trpc ? [["trpc", scenario.trpc] as [Transport, typeof scenario.rest]] : []),
      ];
      for (const [transport, request] of transports) {
        const run = await measure(api.origin, api.pid, request, settings);
        const steady =
          rate === undefined || referencesSteady === undefined
            ? undefined
            : { api: await measureSteady(api.origin, request, rate, settings.seconds), ...referencesSteady };
        const base = { db: provider, events, name: scenario.name, transport };
        const steadyFailures = steady ? steady.api.failures + steady.floor.failures + steady.limit.failures : 0;
        record(
          resultOf(base, run, { floor: floorRun, limit: limitRun }, steady),
          run.failures + floorRun.failures + limitRun.failures + steadyFailures,
        );
      }
    }
    for (const scenario of writeScenarios(fixtures)) {
      if (!wanted(scenario.name)) continue;
      const run = await measure(api.origin, api.pid, scenario.rest, settings);
      const base = { db: provider, events, name: scenario.name, transport: "rest" as const };
      record(resultOf(base, run, undefined), run.failures);
    }
  } finally {
    await api.stop();
    await limit.stop();
    await floor.stop();
  }
  // With no other server on the database, so that nothing else writes while the pair is measured.
  if (wanted("event create (outbox)")) await benchmarkOutbox({ db: provider, events }, env, fixtures, record);
  await benchmarkCache({ db: provider, events }, env, fixtures, record);
  return { startup, scenarios: results };
}

/**
 * What the outbox costs event creation: the same server with and without its statement (`outbox-server.ts`), the
 * one after the other on the same database, the one without it as the limit column.
 */
async function benchmarkOutbox(
  base: Pick<ScenarioResult, "db" | "events">,
  env: Record<string, string>,
  fixtures: Awaited<ReturnType<typeof readFixtures>>,
  record: (result: ScenarioResult, failures: number) => void,
): Promise<void> {
  const script = join(API_DIR, "dist", "outbox-server.mjs");
  const [scenario] = writeScenarios(fixtures);
  if (!scenario) return;
  const without = await startServer(script, { ...env, CALENDAR_BENCH_OUTBOX: "off" }, "/readyz");
  const withoutRun = await measure(without.origin, without.pid, scenario.rest, settings).finally(() => without.stop());
  const outbox = await startServer(script, { ...env, CALENDAR_BENCH_OUTBOX: "on" }, "/readyz");
  const run = await measure(outbox.origin, outbox.pid, scenario.rest, settings).finally(() => outbox.stop());
  const result = resultOf({ ...base, name: "event create (outbox)", transport: "rest" }, run, {
    floor: withoutRun,
    limit: withoutRun,
  });
  record(result, run.failures + withoutRun.failures);
}

/**
 * The response cache against a bare Fastify route answering the same answer as a constant (its req/s is the limit
 * column): what is left between them is the cache's own work, not the size of the body.
 */
async function benchmarkCache(
  base: Pick<ScenarioResult, "db" | "events">,
  env: Record<string, string>,
  fixtures: Awaited<ReturnType<typeof readFixtures>>,
  record: (result: ScenarioResult, failures: number) => void,
): Promise<void> {
  const names = ["cached events list (default)", "cached event single (by id)", "cached events list revalidation"];
  if (!names.some(wanted)) return;
  const profileDir = join(RESULTS_DIR, "profiles");
  const cached = await startServer(
    join(API_DIR, "dist", "main.mjs"),
    { ...env, CALENDAR_CACHE_MB: "32" },
    "/readyz",
    args.profile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--cpu-prof-name=cached-server.cpuprofile"] : [],
  );
  try {
    for (const scenario of await cacheScenarios(fixtures, cached.origin)) {
      if (!wanted(scenario.name)) continue;
      const answerFile = join(RESULTS_DIR, "bare-answer.json");
      writeFileSync(answerFile, JSON.stringify(scenario.answer));
      const bare = await startServer(
        join(API_DIR, "dist", "bare-server.mjs"),
        { ...env, BARE_ANSWER_FILE: answerFile },
        "/",
      );
      const bareRun = await measure(bare.origin, bare.pid, scenario.rest, settings).finally(() => bare.stop());
      const run = await measure(cached.origin, cached.pid, scenario.rest, settings);
      // The constant-body route is both the floor and the limit of a cached answer.
      const result = resultOf({ ...base, name: scenario.name, transport: "rest" }, run, {
        floor: bareRun,
        limit: bareRun,
      });
      record(result, run.failures + bareRun.failures);
    }
  } finally {
    await cached.stop();
  }
}

build();
const report = newReport();
const notes: RunNotes = {
  settings: `autocannon, ${settings.connections} connections, ${settings.warmupSeconds} s warm-up then ${settings.seconds} s per scenario; server: production build (\`dist/main.mjs\`), NODE_ENV=production, LOG_LEVEL=warn, no rate limit.`,
  seeds: [],
  failures: [],
};
console.log(textTable([]));
let complete = true;
for (const provider of providers) {
  try {
    const url = await emptyDatabase(provider);
    report.startup.push(await startupOf(provider, 0, serverEnv(url)));
  } catch (error) {
    notes.failures.push(`${provider}, empty database: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const events of sizes) {
    try {
      const { startup, scenarios } = await benchmark(provider, events, notes);
      report.startup.push(startup);
      report.scenarios.push(...scenarios);
    } catch (error) {
      // One database that cannot be prepared must not lose the measurements of the others.
      complete = false;
      notes.failures.push(`${provider} ${events}: ${error instanceof Error ? error.message : String(error)}`);
      console.error(error);
    }
  }
}
console.log(`\n${textTable(report.scenarios)}\n\n${targetLines(report).join("\n")}`);
for (const failure of notes.failures) console.error(`failure: ${failure}`);
for (const path of writeReport(RESULTS_DIR, report, notes, fullMatrix && complete)) console.error(`Wrote ${path}`);

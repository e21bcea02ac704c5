import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { pacedLoad, percentile } from "./paced-load.ts";

/** One kind of request the load generator sends; `next` varies it per request (ids, slugs, new titles). */
export interface BenchRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  next?: () => { path: string; body?: string };
}

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface Measured {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  /** Non-2xx answers and socket errors: a scenario with any is not a valid measurement. */
  failures: number;
  /** The highest resident set size of the server process seen during the measured run. */
  rss_mb: number;
  /**
   * CPU time the server spent per request (user + system): unlike req/s, it hardly moves when other programs load
   * the machine, so it is the figure to compare changes with.
   */
  cpu_ms: number;
}

function autocannonRun(origin: string, request: BenchRequest, connections: number, seconds: number) {
  return autocannon({
    url: origin,
    connections,
    duration: seconds,
    requests: [
      {
        method: request.method,
        path: request.path,
        headers: request.headers ?? {},
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(request.next
          ? {
              setupRequest: (raw) => {
                const varied = request.next?.();
                return varied ? { ...raw, ...varied } : raw;
              },
            }
          : {}),
      },
    ],
  });
}

/** CPU seconds a process has used so far (user + system), from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

/** Resident set size of a process, from /proc (Linux), in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  return kilobytes / 1024;
}

/** Non-2xx answers and socket errors; a revalidation's 304 is its success. */
function failuresOf(request: BenchRequest, result: autocannon.Result): number {
  return result.non2xx - (request.headers?.["if-none-match"] ? result["3xx"] : 0) + result.errors + result.timeouts;
}

/** A run at a fixed rate below saturation: the latency a user sees when the server is busy but not overloaded. */
export interface SteadyMeasured {
  rate: number;
  p99_ms: number;
  failures: number;
}

/** The server at `rate` requests per second, evenly paced (`paced-load.ts`), after a second of the same to warm up. */
export async function measureSteady(
  origin: string,
  request: BenchRequest,
  rate: number,
  seconds: number,
): Promise<SteadyMeasured> {
  await pacedLoad(origin, request, rate, 1);
  const { latencies, failures } = await pacedLoad(origin, request, rate, seconds);
  return { rate, p99_ms: percentile(latencies, 0.99), failures };
}

/** Warm-up (discarded), then the measured run, sampling the server's RSS every 100 ms. */
export async function measure(
  origin: string,
  serverPid: number,
  request: BenchRequest,
  settings: LoadSettings,
): Promise<Measured> {
  if (settings.warmupSeconds > 0) await autocannonRun(origin, request, settings.connections, settings.warmupSeconds);
  let peak = rssMb(serverPid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(serverPid));
  }, 100);
  try {
    const cpuBefore = cpuSeconds(serverPid);
    const result = await autocannonRun(origin, request, settings.connections, settings.seconds);
    const cpu = cpuSeconds(serverPid) - cpuBefore;
    peak = Math.max(peak, rssMb(serverPid));
    return {
      rps: result.requests.average,
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
      failures: failuresOf(request, result),
      rss_mb: Math.round(peak * 10) / 10,
      cpu_ms: result.requests.total > 0 ? (cpu * 1000) / result.requests.total : 0,
    };
  } finally {
    clearInterval(sampler);
  }
}

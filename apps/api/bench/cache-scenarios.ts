import type { BenchRequest } from "./load.ts";
import type { Fixtures } from "./scenarios.ts";

const API = "/cal/events/v1";

/** An answer as the bare route replays it: what the cached server gave the scenario's first request. */
export interface BareAnswer {
  status: number;
  contentType: string;
  etag: string | null;
  /** base64 */
  body: string;
}

export interface CacheScenario {
  name: string;
  rest: BenchRequest;
  answer: BareAnswer;
}

async function answerOf(origin: string, request: Pick<BenchRequest, "path" | "headers">): Promise<BareAnswer> {
  const response = await fetch(`${origin}${request.path}`, { headers: request.headers ?? {} });
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "application/json; charset=utf-8",
    etag: response.headers.get("etag"),
    body: Buffer.from(await response.arrayBuffer()).toString("base64"),
  };
}

function rotating<T>(items: readonly T[], toPath: (item: T) => string): Pick<BenchRequest, "path" | "next"> {
  let index = 0;
  return {
    path: toPath(items[0] as T),
    next: () => ({ path: toPath(items[index++ % items.length] as T) }),
  };
}

/**
 * Repeated anonymous reads against a server with the response cache on (`CALENDAR_CACHE_MB`), and revalidations
 * with the ETag the server gave: what the cache serves without querying more than the change version.
 */
export async function cacheScenarios(fixtures: Fixtures, origin: string): Promise<CacheScenario[]> {
  const list = `${API}/events`;
  const etag = (await fetch(`${origin}${list}`)).headers.get("etag") ?? "";
  const ids = fixtures.events.map((event) => event.id);
  const scenarios: Array<Omit<CacheScenario, "answer">> = [
    { name: "cached events list (default)", rest: { method: "GET", path: list } },
    { name: "cached event single (by id)", rest: { method: "GET", ...rotating(ids, (id) => `${API}/events/${id}`) } },
    {
      name: "cached events list revalidation (If-None-Match → 304)",
      rest: { method: "GET", path: list, headers: { "if-none-match": etag } },
    },
  ];
  return Promise.all(
    scenarios.map(async (scenario) => ({ ...scenario, answer: await answerOf(origin, scenario.rest) })),
  );
}

import type { BenchRequest } from "./load.ts";
import type { Fixtures } from "./scenarios.ts";

const API = "/cal/events/v1";

export interface CacheScenario {
  name: string;
  rest: BenchRequest;
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
  return [
    { name: "cached events list (default)", rest: { method: "GET", path: list } },
    { name: "cached event single (by id)", rest: { method: "GET", ...rotating(ids, (id) => `${API}/events/${id}`) } },
    {
      name: "cached events list revalidation (If-None-Match → 304)",
      rest: { method: "GET", path: list, headers: { "if-none-match": etag } },
    },
  ];
}

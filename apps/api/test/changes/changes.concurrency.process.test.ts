import { describe, expect, it } from "vitest";
import { type ServerInstance, useServerPair } from "../support/process.ts";

const API = "/cal/events/v1";
const WRITES_PER_INSTANCE = 40;
const PARALLEL_PER_INSTANCE = 6;

interface Change {
  type: string;
  id: number;
  action: string;
  version: number;
}

/**
 * The outbox under real concurrency: two server processes on one PostgreSQL database take concurrent writes (some of
 * them refused and rolled back) while a client polls the feed in small pages; it must see every committed write
 * exactly once, in version order, and none that was rolled back.
 */
describe("the change feed under concurrent writes through two server processes (postgres)", () => {
  const pair = useServerPair("postgres", "administrator");

  const get = async (instance: ServerInstance, query: string) => {
    const response = await fetch(`${instance.origin}${API}/changes${query}`, {
      headers: { authorization: pair.authorization },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { changes: Change[]; next_token: string; has_more: boolean };
  };

  /** Creates tags through one instance, several at a time; every fifth repeats a name (400, rolled back). */
  async function writeThrough(instance: ServerInstance, label: string): Promise<number[]> {
    const created: number[] = [];
    const names = Array.from({ length: WRITES_PER_INSTANCE }, (_, index) =>
      index % 5 === 4 ? `${label} 0` : `${label} ${index}`,
    );
    const queue = [...names];
    const worker = async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        const response = await fetch(`${instance.origin}${API}/tags`, {
          method: "POST",
          headers: { authorization: pair.authorization, "content-type": "application/json" },
          body: JSON.stringify({ name }),
        });
        const body = (await response.json()) as { id: number };
        if (response.status === 201) created.push(body.id);
        else expect(response.status).toBe(400);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_PER_INSTANCE }, worker));
    return created;
  }

  it("shows every committed change exactly once, in version order, while the writes go on", {
    timeout: 120_000,
  }, async () => {
    const { first, second } = pair;
    let token = (await get(first, "")).next_token;
    const seen: Change[] = [];
    let writing = true;
    const poll = async (instance: ServerInstance) => {
      const page = await get(instance, `?since=${encodeURIComponent(token)}&types=tag&per_page=7`);
      seen.push(...page.changes);
      token = page.next_token;
      return page.has_more;
    };
    const poller = (async () => {
      for (let round = 0; writing; round++) await poll(round % 2 ? first : second);
    })();
    const created = (await Promise.all([writeThrough(first, "First"), writeThrough(second, "Second")])).flat();
    writing = false;
    await poller;
    while (await poll(first));
    // Each instance refused some duplicates (rolled back); none of them may appear.
    expect(created.length).toBeGreaterThanOrEqual(2 * (WRITES_PER_INSTANCE - WRITES_PER_INSTANCE / 5));
    expect(created.length).toBeLessThan(2 * WRITES_PER_INSTANCE);
    expect(seen.map((change) => change.id).sort((a, b) => a - b)).toEqual([...created].sort((a, b) => a - b));
    expect(seen.map(({ type, action }) => ({ type, action }))).toEqual(
      seen.map(() => ({ type: "tag", action: "created" })),
    );
    const versions = seen.map((change) => change.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });
});

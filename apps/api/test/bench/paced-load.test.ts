import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pacedLoad, percentile } from "../../bench/paced-load.ts";

let server: Server | undefined;

afterEach(async () => {
  server?.close();
  server = undefined;
});

/** A server whose first answer waits `stallMs` while the others are immediate; it counts the requests' arrivals. */
async function stallingServer(stallMs: number) {
  const arrivals: number[] = [];
  server = createServer((_request, response) => {
    arrivals.push(performance.now());
    const delay = arrivals.length === 1 ? stallMs : 0;
    setTimeout(() => response.end("ok"), delay);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, arrivals };
}

describe("the steady load of the benchmark", () => {
  it("sends rate × seconds requests evenly, without waiting for a stalled answer", async () => {
    const { origin, arrivals } = await stallingServer(300);
    const { latencies, failures } = await pacedLoad(origin, { method: "GET", path: "/" }, 50, 1);
    expect(latencies).toHaveLength(50);
    expect(failures).toBe(0);
    // The requests kept coming while the first one waited: an open loop, 20 ms apart.
    const spread = (arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0);
    expect(spread).toBeGreaterThan(900);
    expect(spread).toBeLessThan(1_300);
    expect(Math.max(...latencies)).toBeGreaterThanOrEqual(300);
    expect(percentile(latencies, 0.5)).toBeLessThan(100);
  });

  it("counts answers that are not 2xx as failures", async () => {
    server = createServer((_request, response) => {
      response.statusCode = 404;
      response.end();
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const { failures } = await pacedLoad(`http://127.0.0.1:${port}`, { method: "GET", path: "/" }, 20, 0.5);
    expect(failures).toBe(10);
  });

  it("takes the nearest-rank percentile", () => {
    const values = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile([], 0.99)).toBe(0);
  });
});

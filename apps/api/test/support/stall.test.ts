import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchHealth } from "./stall.ts";

/** The harness itself: it must tell a request that blocks the event loop from one that waits without blocking. */
describe("the stall harness", () => {
  const server = Fastify();
  let origin = "";

  beforeAll(async () => {
    server.get("/healthz", async () => ({ status: "ok" }));
    server.get("/blocks", async () => {
      const until = performance.now() + 1_500;
      while (performance.now() < until) {
        // holds the event loop, as an unbounded expansion would
      }
      return { blocked: true };
    });
    server.get("/waits", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return { blocked: false };
    });
    origin = await server.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(() => server.close());

  it("reports a request that holds the event loop for 1.5 s as a stall of at least 1 s", async () => {
    const report = await watchHealth(origin, () => fetch(`${origin}/blocks`).then((response) => response.json()));
    expect(report.answer).toEqual({ blocked: true });
    expect(report.slowestPollMs).toBeGreaterThan(1_000);
    expect(report.slowestPollMs).toBeGreaterThan(report.thresholdMs);
  });

  it("reports a request that waits 1.5 s without blocking as no stall", async () => {
    const report = await watchHealth(origin, () => fetch(`${origin}/waits`).then((response) => response.json()));
    expect(report.answer).toEqual({ blocked: false });
    expect(report.polls).toBeGreaterThan(10);
    expect(report.slowestPollMs).toBeLessThan(report.thresholdMs);
  });
});

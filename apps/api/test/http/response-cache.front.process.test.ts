import { request } from "node:http";
import type { Provider } from "@calendar/core";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { buildServer } from "../../src/server.ts";
import { finished, listening, runEntry } from "../support/process.ts";
import { getAcrossShutdown } from "../support/raw-http.ts";

const API = "/cal/events/v1";
const LIST = `${API}/events?start_date=2030-01-01&end_date=2030-12-31`;

interface Answer {
  status: number;
  etag: string;
}

/** A GET without `Accept-Encoding` (fetch always sends one): the kind of request the cache front answers. */
function plainGet(origin: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(`${origin}${path}`, { headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, etag: String(response.headers.etag) }));
    })
      .on("error", reject)
      .end();
  });
}

describe.each(PROVIDERS)("hits of the response cache answered before Fastify (%s)", (provider: Provider) => {
  const database = useTestDatabase(provider);

  /**
   * A server with a 1 MiB response cache over the test database, listening on a free port; `prepare` runs before
   * it listens (when hooks can still be added). The test closes it.
   */
  async function startCachingServer(prepare: (server: FastifyInstance) => void = () => {}) {
    const server = await buildServer({
      site: { timezone: "UTC" },
      bodyLimit: 1024 * 1024,
      cacheBytes: 1024 * 1024,
      handle: database.current.handle,
    });
    prepare(server);
    return { server, origin: await server.listen({ host: "127.0.0.1", port: 0 }) };
  }

  /** A write as the services record it: the change version advances, so every cached answer is stale. */
  const recordAWrite = () =>
    database.current.handle.db.changeVersion.update({ where: { id: 1 }, data: { version: { increment: 1 } } });

  it("are written without Fastify seeing the request, and a write makes the next one a miss that does", async () => {
    let seen = 0;
    const { server, origin } = await startCachingServer((unstarted) =>
      unstarted.addHook("onRequest", async () => {
        seen += 1;
      }),
    );
    try {
      const miss = await plainGet(origin, LIST);
      const hit = await plainGet(origin, LIST);
      const revalidated = await plainGet(origin, LIST, { "if-none-match": miss.etag });
      expect([miss.status, hit.status, revalidated.status, seen]).toEqual([200, 200, 304, 1]);
      await recordAWrite();
      const after = await plainGet(origin, LIST, { "if-none-match": miss.etag });
      expect([after.status, seen]).toEqual([200, 2]);
      expect(after.etag).not.toBe(miss.etag);
    } finally {
      await server.close();
    }
  });

  it("answer concurrent readers from one version read after they arrived: none misses a write committed before", async () => {
    const { server, origin } = await startCachingServer();
    const burst = () => Promise.all(Array.from({ length: 20 }, () => plainGet(origin, LIST)));
    try {
      const before = await burst();
      await recordAWrite();
      const after = await burst();
      expect(new Set(before.map((answer) => `${answer.status} ${answer.etag}`)).size).toBe(1);
      expect(new Set(after.map((answer) => `${answer.status} ${answer.etag}`)).size).toBe(1);
      expect([after[0]?.status, after[0]?.etag]).not.toEqual([before[0]?.status, before[0]?.etag]);
    } finally {
      await server.close();
    }
  });

  it("are refused with the draining 503 once the server drains, like every other request", async () => {
    const { server, origin } = await startCachingServer();
    for (let round = 0; round < 2; round++) expect((await plainGet(origin, LIST)).status).toBe(200);
    const { head: headers, body } = await getAcrossShutdown(origin, LIST, () => server.close());
    expect(headers[0]).toBe("http/1.1 503 service unavailable");
    expect(headers).toContain("retry-after: 1");
    expect(headers).toContain("connection: close");
    expect(JSON.parse(body)).toMatchObject({ code: "rest_shutting_down" });
  });
});

describe("the request log of a server answering hits before Fastify", () => {
  const database = useTestDatabase("sqlite");

  it("writes for each hit and its 304 the line it writes for the miss, with a request id of the same series", async () => {
    const child = runEntry("src/main.ts", [], {
      DATABASE_URL: database.current.url,
      PORT: "0",
      LOG_LEVEL: "info",
      CALENDAR_CACHE_MB: "8",
    });
    const done = finished(child);
    const origin = await listening(child);
    const miss = await plainGet(origin, LIST);
    const hit = await plainGet(origin, LIST);
    const revalidated = await plainGet(origin, LIST, { "if-none-match": miss.etag });
    expect([miss.status, hit.status, revalidated.status, hit.etag]).toEqual([200, 200, 304, miss.etag]);
    child.kill("SIGTERM");
    const { stdout } = await done;
    const lines = stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === "request completed");
    // The REST plugin's catch-all route; the miss's `url` is what the REST adapter left of it, the hits' the path.
    const route = `${API}/*`;
    expect(lines.map(({ method, route, status }) => ({ method, route, status }))).toEqual([
      { method: "GET", route, status: 200 },
      { method: "GET", route, status: 200 },
      { method: "GET", route, status: 304 },
    ]);
    expect(lines.slice(1).map((line) => line.url)).toEqual([`${API}/events`, `${API}/events`]);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(Object.keys(lines[0] ?? {}));
      expect(line.reqId).toMatch(/^req-[0-9a-z]+$/);
      expect(typeof line.durationMs).toBe("number");
    }
    expect(new Set(lines.map((line) => line.reqId)).size).toBe(3);
  });
});

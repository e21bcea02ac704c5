import { Agent, request } from "node:http";
import { connect } from "node:net";
import type { Provider } from "@calendar/core";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { buildServer } from "../../src/server.ts";

const LIST = "/cal/events/v1/events";
/** Far below the 72 s a kept-alive connection may idle, far above what closing takes. */
const PROMPT_CLOSE_MS = 5_000;
/** A generous bound for a test that would otherwise wait for a connection to time out. */
const DOES_NOT_HANG = { timeout: 30_000 };

function get(origin: string, path: string, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${origin}${path}`, agent ? { agent } : {}, (response) => {
      let body = "";
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

async function timeToClose(server: FastifyInstance): Promise<number> {
  const started = performance.now();
  await server.close();
  return performance.now() - started;
}

describe.each(PROVIDERS)("shutting the server down (%s)", (provider: Provider) => {
  const database = useTestDatabase(provider);

  async function startServer(prepare: (server: FastifyInstance) => void = () => {}) {
    const server = await buildServer({
      site: { timezone: "UTC" },
      bodyLimit: 1024 * 1024,
      handle: database.current.handle,
    });
    prepare(server);
    return { server, origin: await server.listen({ host: "127.0.0.1", port: 0 }) };
  }

  it("closes a kept-alive connection that idles after its answer at once", DOES_NOT_HANG, async () => {
    const { server, origin } = await startServer();
    const agent = new Agent({ keepAlive: true });
    try {
      expect((await get(origin, LIST, agent)).status).toBe(200);
      expect(await timeToClose(server)).toBeLessThan(PROMPT_CLOSE_MS);
    } finally {
      agent.destroy();
    }
  });

  it(
    "closes a kept-alive connection whose answer was still being written when close began",
    DOES_NOT_HANG,
    async () => {
      const { server, origin } = await startServer();
      const refused = await fetch(`${origin}/trpc/webhooks.list`, { headers: { authorization: "Bearer cal_wrong" } });
      expect(refused.status).toBe(401);
      expect(await timeToClose(server)).toBeLessThan(PROMPT_CLOSE_MS);
    },
  );

  it(
    "closes a connection that has sent no request within a second, not when the client gives up",
    DOES_NOT_HANG,
    async () => {
      const { server, origin } = await startServer();
      const { hostname, port } = new URL(origin);
      const socket = connect(Number(port), hostname);
      try {
        await new Promise((resolve) => socket.on("connect", resolve));
        expect(await timeToClose(server)).toBeLessThan(PROMPT_CLOSE_MS);
      } finally {
        socket.destroy();
      }
    },
  );

  it("lets a request in flight finish with its answer", DOES_NOT_HANG, async () => {
    let arrived: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const { server, origin } = await startServer((unstarted) =>
      unstarted.addHook("onRequest", async (request) => {
        if (!request.url.includes("slow=1")) return;
        arrived();
        await new Promise((resolve) => setTimeout(resolve, 500));
      }),
    );
    const agent = new Agent({ keepAlive: true });
    try {
      const answer = get(origin, `${LIST}?slow=1`, agent);
      await inFlight;
      const closing = timeToClose(server);
      const { status, body } = await answer;
      expect(status).toBe(200);
      expect(JSON.parse(body)).toMatchObject({ events: [], total: 0 });
      expect(await closing).toBeLessThan(PROMPT_CLOSE_MS);
    } finally {
      agent.destroy();
    }
  });
});

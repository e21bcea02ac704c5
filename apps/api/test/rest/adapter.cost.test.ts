import { publicProcedure, router } from "@calendar/core";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildServer } from "../../src/server.ts";
import { requestsBuiltBy } from "../support/requests-built.ts";

/**
 * What our patch of trpc-to-openapi (`patches/trpc-to-openapi@3.3.0.patch`) saves per REST request, each saving
 * observed through the real server: no WHATWG Request (nor its AbortSignal) unless someone reads the signal; the
 * input schema inspected once per procedure, not once per request; no methods bound onto every request and reply.
 */

let shapeReads = 0;
const ListInput = z.object({ ids: z.array(z.string()).optional(), page: z.number().optional() });
const shape = ListInput.shape;
// trpc-to-openapi reads the shape to find array parameters and to set coercion on the schema.
Object.defineProperty(ListInput, "shape", {
  get() {
    shapeReads += 1;
    return shape;
  },
});

const costRouter = router({
  list: publicProcedure
    .meta({ openapi: { method: "GET", path: "/costs", protect: false }, http: { cache: "body", record: null } })
    .input(ListInput)
    .output(z.object({ ids: z.array(z.string()), page: z.number() }))
    .query(({ input }) => ({ ids: input.ids ?? [], page: input.page ?? 1 })),
});

describe.each(PROVIDERS)("the REST adapter's work per request (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let server: FastifyInstance;
  const ownNodeMethods: string[] = [];

  beforeAll(async () => {
    server = await buildServer({
      site: { timezone: "UTC" },
      bodyLimit: 1024 * 1024,
      handle: database.current.handle,
      routers: { rest: costRouter, app: costRouter },
    });
    server.addHook("onResponse", async (request, reply) => {
      for (const name of ["once", "on", "off", "destroy"]) if (Object.hasOwn(request, name)) ownNodeMethods.push(name);
      for (const name of ["setHeader", "end", "emit", "statusCode"])
        if (Object.hasOwn(reply, name)) ownNodeMethods.push(name);
    });
    await server.ready();
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers with the input coerced and lists wrapped, as before", async () => {
    const response = await server.inject({ method: "GET", url: "/cal/events/v1/costs?ids=a&page=2" });
    expect({ status: response.statusCode, body: response.body }).toEqual({
      status: 200,
      body: '{"ids":["a"],"page":2}',
    });
  });

  it("builds no WHATWG Request for a request whose abort signal nobody reads", async () => {
    let status = 0;
    const built = await requestsBuiltBy(async () => {
      status = (await server.inject({ method: "GET", url: "/cal/events/v1/costs" })).statusCode;
    });
    expect({ status, built }).toEqual({ status: 200, built: 0 });
  });

  it("reads a procedure's input schema on its first request only", async () => {
    await server.inject({ method: "GET", url: "/cal/events/v1/costs?page=1" });
    const after = shapeReads;
    for (const page of [2, 3, 4]) await server.inject({ method: "GET", url: `/cal/events/v1/costs?page=${page}` });
    expect(shapeReads).toBe(after);
  });

  it("binds no Node.js methods onto the request and reply objects", async () => {
    ownNodeMethods.length = 0;
    await server.inject({ method: "GET", url: "/cal/events/v1/costs" });
    expect(ownNodeMethods).toEqual([]);
  });
});

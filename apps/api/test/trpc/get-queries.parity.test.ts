import type { IncomingHttpHeaders } from "node:http";
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { create, PROVIDERS } from "@calendar/core/testing";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/server.ts";
import { requestsBuiltBy } from "../support/requests-built.ts";
import { useTestServer } from "../support/server.ts";

/**
 * tRPC GET queries are answered without tRPC's Fetch-API round trip (`src/trpc/get-queries.ts`). The same requests
 * sent to a server that answers them that way and to one that sends everything through tRPC's adapter get the same
 * status, headers and bytes: single and batched calls, successes, failures, the adapter's own refusals.
 */

const CORS_ORIGIN = "https://app.example";
/** Both servers see one Host, so that the links in bodies and headers match. */
const HOST = "calendar.test";

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function decoded(encoding: string | undefined, body: Buffer): string {
  if (encoding === "gzip") return gunzipSync(body).toString("utf8");
  if (encoding === "br") return brotliDecompressSync(body).toString("utf8");
  return body.toString("utf8");
}

/** One request on Node's client: every header as sent (`date` aside), the body decoded from its encoding. */
function exchange(origin: string, path: string, method: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(`${origin}${path}`, { method, headers: { host: HOST, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const { date: _date, ...kept } = response.headers;
        const body = decoded(response.headers["content-encoding"], Buffer.concat(chunks));
        resolve({ status: response.statusCode ?? 0, headers: kept, body });
      });
    })
      .on("error", reject)
      .end();
  });
}

const input = (value: unknown) => `input=${encodeURIComponent(JSON.stringify(value))}`;

describe.each(PROVIDERS)("tRPC GET queries without the Fetch-API round trip (%s)", (provider) => {
  const fast = useTestServer(provider, { corsOrigins: [CORS_ORIGIN] });
  let adapter: FastifyInstance;
  let adapterOrigin = "";
  const ids = { published: 0, draft: 0 };

  beforeAll(async () => {
    const { db } = fast;
    ids.published = (await create.event(db, { title: "Harbour Jazz" })).id;
    ids.draft = (await create.event(db, { title: "Quiet Draft", status: "draft" })).id;
    await create.event(db, { title: "Hafenjazz", language: "de" });
    adapter = await buildServer({
      site: { timezone: "UTC" },
      bodyLimit: 1024 * 1024,
      corsOrigins: [CORS_ORIGIN],
      handle: fast.database.handle,
      trpcGetQueriesFirst: false,
    });
    adapterOrigin = await adapter.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await adapter?.close();
  });

  const admin = () => ({ authorization: `Bearer ${fast.users.administrator.token}` });

  /** What each request is, and the status it gets (from both servers). */
  const cases: Array<{
    name: string;
    path: () => string;
    status: number;
    method?: string;
    headers?: () => Record<string, string>;
  }> = [
    { name: "a list, single", path: () => `/trpc/events.list?${input({})}`, status: 200 },
    { name: "a list without input", path: () => "/trpc/events.list", status: 400 },
    { name: "a list with an empty input", path: () => "/trpc/events.list?input=", status: 400 },
    { name: "a list, batched", path: () => `/trpc/events.list?batch=1&${input({ 0: {} })}`, status: 200 },
    {
      name: "a list in German (the client's language link)",
      path: () => `/trpc/events.list?batch=1&${input({ 0: { ml_language: "de" } })}`,
      status: 200,
    },
    { name: "an event by id", path: () => `/trpc/events.get?${input({ id: ids.published })}`, status: 200 },
    {
      name: "an event by slug, batched",
      path: () => `/trpc/events.getBySlug?batch=1&${input({ 0: { slug: "harbour-jazz" } })}`,
      status: 200,
    },
    {
      name: "three queries in one batch",
      path: () =>
        `/trpc/events.get,events.getBySlug,events.list?batch=1&${input({
          0: { id: ids.published },
          1: { slug: "harbour-jazz" },
          2: { per_page: 1 },
        })}`,
      status: 200,
    },
    { name: "an event that does not exist", path: () => `/trpc/events.get?${input({ id: 999_999 })}`, status: 404 },
    {
      name: "a batch with one missing event",
      path: () => `/trpc/events.get,events.get?batch=1&${input({ 0: { id: ids.published }, 1: { id: 999_999 } })}`,
      status: 404,
    },
    { name: "an invalid id", path: () => `/trpc/events.get?${input({ id: "abc" })}`, status: 400 },
    { name: "no input where one is required", path: () => "/trpc/events.get", status: 400 },
    {
      name: "a list with an invalid filter, batched",
      path: () => `/trpc/events.list?batch=1&${input({ 0: { per_page: 0 } })}`,
      status: 400,
    },
    { name: "a draft, anonymously", path: () => `/trpc/events.get?${input({ id: ids.draft })}`, status: 403 },
    {
      name: "a draft, as an administrator",
      path: () => `/trpc/events.get?${input({ id: ids.draft })}`,
      headers: admin,
      status: 200,
    },
    {
      name: "a batch with a token that authenticates no one",
      path: () => `/trpc/events.list,events.get?batch=1&${input({ 0: {}, 1: { id: ids.published } })}`,
      headers: () => ({ authorization: "Bearer not-a-token" }),
      status: 401,
    },
    {
      name: "a percent-encoded procedure path",
      path: () => `/trpc/events%2Eget?${input({ id: ids.published })}`,
      status: 200,
    },
    {
      name: "a list compressed with gzip",
      path: () => `/trpc/events.list?${input({})}`,
      headers: () => ({ "accept-encoding": "gzip" }),
      status: 200,
    },
    {
      name: "an error compressed with brotli",
      path: () => `/trpc/events.get?${input({ id: 999_999 })}`,
      headers: () => ({ "accept-encoding": "br" }),
      status: 404,
    },
    {
      name: "a CORS request (the adapter's Vary replaces the plugin's)",
      path: () => `/trpc/events.get?${input({ id: ids.published })}`,
      headers: () => ({ origin: CORS_ORIGIN }),
      status: 200,
    },
    {
      name: "a conditional GET (tRPC answers carry no validators)",
      path: () => `/trpc/events.get?${input({ id: ids.published })}`,
      headers: () => ({ "if-none-match": "*" }),
      status: 200,
    },
    // Left to the adapter:
    { name: "input that is no JSON", path: () => "/trpc/events.list?input=%7Bnot", status: 400 },
    { name: "a batch whose input is no object", path: () => `/trpc/events.list?batch=1&${input([{}])}`, status: 400 },
    { name: "an unknown procedure", path: () => "/trpc/events.nothing", status: 404 },
    { name: "a mutation over GET", path: () => `/trpc/events.create?${input({})}`, status: 404 },
    { name: "a malformed percent-escape in the path", path: () => "/trpc/events.get%E0%A4%A", status: 400 },
    { name: "HEAD", path: () => `/trpc/events.list?${input({})}`, method: "HEAD", status: 204 },
    {
      name: "a streamed batch",
      path: () => `/trpc/events.get?batch=1&${input({ 0: { id: ids.published } })}`,
      headers: () => ({ "trpc-accept": "application/jsonl" }),
      status: 200,
    },
    {
      name: "a GET with a content type",
      path: () => `/trpc/events.list?${input({})}`,
      headers: () => ({ "content-type": "application/json" }),
      status: 200,
    },
  ];

  it.each(cases)("answers $name as the adapter does", async ({ path, method = "GET", headers, status }) => {
    const sent = headers?.() ?? {};
    const answer = await exchange(fast.origin, path(), method, sent);
    expect(answer).toEqual(await exchange(adapterOrigin, path(), method, sent));
    expect(answer.status).toBe(status);
  });

  it("builds no WHATWG Request for a GET of queries, where the adapter builds one", async () => {
    const path = `/trpc/events.get,events.list?batch=1&${input({ 0: { id: ids.published }, 1: {} })}`;
    const answeringFirst = await requestsBuiltBy(() => exchange(fast.origin, path, "GET", {}));
    const adapter = await requestsBuiltBy(() => exchange(adapterOrigin, path, "GET", {}));
    expect({ answeringFirst, adapter }).toEqual({ answeringFirst: 0, adapter: 1 });
  });
});

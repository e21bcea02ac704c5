import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { PROVIDERS } from "@calendar/core/testing";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/server.ts";
import { eventsOf } from "../events/support.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
const PUBLIC_URL = "https://calendar.example";

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body decoded from its Content-Encoding. */
  body: string;
}

/** Per answer, not per representation: the date, the connection and the framing of the body. */
const PER_ANSWER = ["date", "connection", "keep-alive", "transfer-encoding", "content-length"];

function exchange(origin: string, method: string, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(`${origin}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const raw = Buffer.concat(chunks);
        const length = response.headers["content-length"];
        if (length !== undefined) expect(raw.length).toBe(method === "HEAD" ? 0 : Number(length));
        const encoding = response.headers["content-encoding"];
        const decoded = encoding === "br" ? brotliDecompressSync(raw) : encoding === "gzip" ? gunzipSync(raw) : raw;
        const kept = Object.entries(response.headers).filter(([name]) => !PER_ANSWER.includes(name));
        resolve({ status: response.statusCode ?? 0, headers: Object.fromEntries(kept), body: decoded.toString() });
      });
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

describe.each(PROVIDERS)("answers from the response cache (%s)", (provider) => {
  const cached = useTestServer(provider, { cacheBytes: 4 * 1024 * 1024, publicUrl: PUBLIC_URL });
  let uncached: FastifyInstance;
  let uncachedOrigin = "";

  beforeAll(async () => {
    uncached = await buildServer({
      site: { timezone: "UTC" },
      bodyLimit: 1024 * 1024,
      publicUrl: PUBLIC_URL,
      handle: cached.database.handle,
    });
    uncachedOrigin = await uncached.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(() => uncached.close());

  it("are the answers of a server without it: status, every header, the body, in every encoding, 304 and HEAD", async () => {
    const as = cached.users.editor;
    const day = { start_date: "2030-05-01 20:00:00", end_date: "2030-05-01 22:00:00" };
    let id = 0;
    for (let index = 0; index < 3; index++) {
      ({ id } = await eventsOf(cached).create({ title: `Parity night ${index}`, ...day }, as));
    }
    const paths = [`${API}/events?start_date=2030-05-01&end_date=2030-05-31`, `${API}/events/${id}`, `${API}/doc`];
    for (const path of paths) {
      const first = await exchange(cached.origin, "GET", path, {});
      const etag = String(first.headers.etag);
      const lastModified = String(first.headers["last-modified"] ?? new Date().toUTCString());
      const variants: Array<[string, Record<string, string>]> = [
        ["GET", {}],
        ["GET", { "accept-encoding": "gzip" }],
        ["GET", { "accept-encoding": "br" }],
        ["GET", { "accept-encoding": "gzip, deflate, br, zstd" }],
        ["GET", { "accept-encoding": "identity" }],
        ["GET", { "accept-encoding": "gzip", "x-no-compression": "1" }],
        ["GET", { accept: "text/html" }],
        ["GET", { "if-none-match": etag, "accept-encoding": "br" }],
        ["GET", { "if-none-match": 'W/"other"' }],
        ["GET", { "if-modified-since": lastModified }],
        ["HEAD", {}],
        ["HEAD", { "accept-encoding": "gzip" }],
      ];
      for (const [method, headers] of variants) {
        const expected = await exchange(uncachedOrigin, method, path, headers);
        // The first may teach the cache the encoding to answer with; the second is a hit written at once.
        for (let round = 0; round < 2; round++) {
          const answer = await exchange(cached.origin, method, path, headers);
          const seen = { path, method, headers, round, status: answer.status, answerHeaders: answer.headers };
          expect(seen).toEqual({ ...seen, status: expected.status, answerHeaders: expected.headers });
          expect(answer.body).toBe(expected.body);
        }
      }
    }
  });
});

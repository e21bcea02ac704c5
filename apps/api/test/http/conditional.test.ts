import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { CalendarClientError, ifMatch, ifUnmodifiedSince } from "@calendar/client";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { eventsOf } from "../events/support.ts";
import { documentOf, operationOf, responseOf } from "../rest/api-document.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
const YEAR = { start_date: "2030-01-01", end_date: "2030-12-31" };

describe.each(PROVIDERS)("conditional requests and caching (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);

  function createEvent(title: string, start = "2030-03-01 20:00:00") {
    return events.create({ title, start_date: start, end_date: start.replace("20:00", "22:00") }, server.users.editor);
  }

  it("sends an ETag on items, lists, the index and the document of every prefix, and 304 for a matching If-None-Match", async () => {
    const event = await createEvent("Tagged night");
    const paths = [API, `${API}/doc`, `${API}/events/${event.id}`, `${API}/venues`, `${API}/categories`];
    for (const prefix of ["", "/de", "/fr", "/zh-hans", "/en"]) {
      for (const path of paths) {
        const url = `${prefix}${path}`;
        const first = await server.rest("GET", url);
        const etag = first.headers.get("etag");
        expect({ url, status: first.status, etag }).toEqual({ url, status: 200, etag: expect.stringMatching(/^W\/"/) });
        const again = await server.rest("GET", url, { headers: { "if-none-match": `"other", ${etag}` } });
        expect({ url, status: again.status, etag: again.headers.get("etag"), text: again.text }).toEqual({
          url,
          status: 304,
          etag,
          text: "",
        });
        expect(again.headers.get("cache-control")).toBe(first.headers.get("cache-control"));
        expect(again.headers.get("content-length")).toBeNull();
        const other = await server.rest("GET", url, { headers: { "if-none-match": 'W/"other"' } });
        expect(other.status).toBe(200);
      }
    }
  });

  it("changes a list's and an item's ETag when the item changes", async () => {
    const event = await createEvent("Changing night");
    const params = { id: event.id };
    const list = await server.call("GET /events", { query: YEAR });
    const item = await server.call("GET /events/{id}", { params });
    await server.call("PATCH /events/{id}", { params, as: server.users.editor, body: { cost: "10" }, status: 200 });
    // Both answer in full (200), not 304: the ETags they were sent are out of date.
    await server.call("GET /events", {
      query: YEAR,
      headers: { "if-none-match": list.headers.get("etag") ?? "" },
      status: 200,
    });
    const itemAfter = await server.call("GET /events/{id}", {
      params,
      headers: { "if-none-match": item.headers.get("etag") ?? "" },
      status: 200,
    });
    expect(itemAfter.body.cost).toBe("10");
    expect(itemAfter.headers.get("etag")).not.toBe(item.headers.get("etag"));
  });

  it("sends Last-Modified on events, venues and organizers, and honours If-Modified-Since", async () => {
    const event = await createEvent("Dated night");
    const venue = await server.call("POST /venues", { as: server.users.editor, body: { venue: "Hall" } });
    const organizer = await server.call("POST /organizers", { as: server.users.editor, body: { organizer: "Org" } });
    const items: Array<[string, string]> = [
      [`${API}/events/${event.id}`, event.modified_utc],
      [`${API}/events/by-slug/${event.slug}`, event.modified_utc],
      [`${API}/venues/${venue.body.id}`, venue.body.modified_utc],
      [`${API}/organizers/${organizer.body.id}`, organizer.body.modified_utc],
    ];
    for (const [path, modified] of items) {
      const { headers } = await server.rest("GET", path);
      const lastModified = new Date(`${modified.replace(" ", "T")}Z`).toUTCString();
      expect({ path, lastModified: headers.get("last-modified") }).toEqual({ path, lastModified });
      const same = await server.rest("GET", path, { headers: { "if-modified-since": lastModified } });
      expect(same.status).toBe(304);
      const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
      expect((await server.rest("GET", path, { headers: { "if-modified-since": earlier } })).status).toBe(200);
    }
  });

  it("refuses a write with a stale If-Match or If-Unmodified-Since with 412 and writes nothing", async () => {
    const as = server.users.editor;
    const event = await createEvent("Guarded night");
    const params = { id: event.id };
    const etagNow = async () => (await server.call("GET /events/{id}", { params, as })).headers.get("etag") ?? "";
    const read = await server.call("GET /events/{id}", { params, as });
    const etag = read.headers.get("etag") ?? "";
    // HTTP dates count seconds: a copy from a second before the last change is stale.
    const readAt = new Date(Date.parse(read.headers.get("last-modified") ?? "") - 1_000).toUTCString();
    await server.call("PATCH /events/{id}", { params, as, body: { cost: "5" }, status: 200 });
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      const conditions: Array<Record<string, string>> = [{ "if-match": etag }, { "if-unmodified-since": readAt }];
      for (const headers of conditions) {
        const stale = await server.fail(`${method} /events/{id}`, 412, { params, as, body: { cost: "99" }, headers });
        expect({ method, headers, body: stale.body }).toEqual({
          method,
          headers,
          body: {
            code: "rest_precondition_failed",
            message: expect.stringContaining("changed"),
            data: { status: 412 },
          },
        });
      }
    }
    const row = await server.db.event.findUniqueOrThrow({ where: { id: event.id } });
    expect([row.cost, row.status]).toEqual(["5", "publish"]);
    const written = await server.call("PATCH /events/{id}", {
      params,
      as,
      body: { cost: "7" },
      headers: { "if-match": await etagNow() },
      status: 200,
    });
    expect(written.body.cost).toBe("7");
    await server.fail("PATCH /events/{id}", 412, {
      params: { id: 999_999 },
      as,
      body: { cost: "1" },
      headers: { "if-match": "*" },
    });
    const deleted = await server.call("DELETE /events/{id}", {
      params,
      as,
      headers: { "if-match": await etagNow() },
      status: 200,
    });
    expect(deleted.body.status).toBe("trash");
  });

  it("conditions tRPC writes of an item on the typed client's ifMatch / ifUnmodifiedSince: 412, nothing written", async () => {
    const as = server.users.editor;
    const client = server.client(as);
    const event = await createEvent("Typed guard");
    const params = { id: event.id };
    const read = await server.call("GET /events/{id}", { params, as });
    const etag = read.headers.get("etag") ?? "";
    const readAt = new Date(Date.parse(read.headers.get("last-modified") ?? "") - 1_000);
    await client.events.update.mutate({ id: event.id, cost: "5" });
    const stale = [
      () => client.events.update.mutate({ id: event.id, cost: "99" }, ifMatch(etag)),
      () => client.events.updateBySlug.mutate({ slug: event.slug, cost: "99" }, ifMatch(etag)),
      () => client.events.delete.mutate({ id: event.id }, ifUnmodifiedSince(readAt)),
    ];
    for (const call of stale) {
      const error = await call().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      if (!(error instanceof CalendarClientError)) throw new Error(`Expected a CalendarClientError, got ${error}`);
      expect([error.status, error.code, error.data?.domain]).toEqual([
        412,
        "rest_precondition_failed",
        { code: "rest_precondition_failed", message: expect.stringContaining("changed"), status: 412 },
      ]);
    }
    const row = await server.db.event.findUniqueOrThrow({ where: { id: event.id } });
    expect([row.cost, row.status]).toEqual(["5", "publish"]);
    const fresh = (await server.call("GET /events/{id}", { params, as })).headers.get("etag") ?? "";
    const written = await client.events.update.mutate({ id: event.id, cost: "7" }, ifMatch(fresh));
    expect(written.cost).toBe("7");
    const venue = await client.venues.create.mutate({ venue: "Guarded hall" }, ifMatch("*"));
    const venueTag =
      (await server.call("GET /venues/{id}", { params: { id: venue.id }, as })).headers.get("etag") ?? "";
    const renamed = await client.venues.update.mutate(
      { id: venue.id, city: "Rome" },
      { context: { ifMatch: venueTag, ifUnmodifiedSince: new Date() } },
    );
    expect(renamed.city).toBe("Rome");
    await expect(client.venues.update.mutate({ id: venue.id, city: "Turin" }, ifMatch(venueTag))).rejects.toMatchObject(
      { status: 412, code: "rest_precondition_failed" },
    );
    expect((await server.db.venue.findUniqueOrThrow({ where: { id: venue.id } })).city).toBe("Rome");
  });

  it("marks anonymous answers public and answers with credentials private, varying by credentials and encoding", async () => {
    const anonymous = await server.call("GET /events", { query: YEAR });
    expect([anonymous.headers.get("cache-control"), anonymous.headers.get("vary")]).toEqual([
      "public, max-age=0, must-revalidate",
      "Authorization, accept-encoding",
    ]);
    const signedIn = await server.call("GET /events", { query: YEAR, as: server.users.author });
    expect([signedIn.headers.get("cache-control"), signedIn.headers.get("vary")]).toEqual([
      "private, max-age=0, must-revalidate",
      "Authorization, accept-encoding",
    ]);
    const asset = await server.rest("GET", "/docs/assets/swagger-ui.css");
    expect(asset.headers.get("cache-control")).toBe("public, max-age=86400");
    const failed = await server.fail("GET /events/{id}", 404, { params: { id: 999_999 } });
    expect([failed.headers.get("cache-control"), failed.headers.get("etag")]).toEqual([null, null]);
  });

  it("compresses with brotli or gzip as Accept-Encoding asks; bodies decode to the same JSON", async () => {
    for (let index = 0; index < 5; index++) await createEvent(`Loud night ${index}`);
    const url = `${server.origin}${API}/events?start_date=2030-01-01&end_date=2030-12-31&per_page=50`;
    const plain = await fetch(url, { headers: { "accept-encoding": "identity" } });
    const expected: unknown = await plain.json();
    expect(plain.headers.get("content-encoding")).toBeNull();
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync } as const;
    for (const [encoding, decode] of Object.entries(decoders)) {
      const response = await fetch(url, { headers: { "accept-encoding": encoding } });
      // fetch decodes by itself; the raw bytes are checked through the decoder of the encoding announced.
      expect(response.headers.get("content-encoding")).toBe(encoding);
      expect(response.headers.get("etag")).toBe(plain.headers.get("etag"));
      expect(await response.json()).toEqual(expected);
      const raw = await rawBody(url, encoding);
      expect(JSON.parse(decode(raw).toString("utf8"))).toEqual(expected);
    }
    const document = await fetch(`${server.origin}${API}/doc`, { headers: { "accept-encoding": "gzip" } });
    expect(document.headers.get("content-encoding")).toBe("gzip");
    const bundle = await fetch(`${server.origin}/docs/assets/swagger-ui-bundle.js`, {
      headers: { "accept-encoding": "br" },
    });
    expect(bundle.headers.get("content-encoding")).toBe("br");
    const small = await fetch(`${server.origin}/healthz`, { headers: { "accept-encoding": "gzip" } });
    expect(small.headers.get("content-encoding")).toBeNull();
  });

  it("sends Link headers (next, prev, first, last) on lists, keeping the prefix and every filter", async () => {
    const discovery = `<${server.origin}/wp-json/>; rel="https://api.w.org/"`;
    for (let index = 0; index < 4; index++)
      await createEvent(`Linked night ${index}`, `2031-0${index + 1}-01 20:00:00`);
    const base = `${server.origin}/de${API}/events/`;
    const query = "start_date=2031-01-01&end_date=2031-12-31&per_page=1&ml_language=en";
    const german = { base: `/de${API}` };
    const first = await server.call("GET /events", { ...german, query: `${query}&page=1` });
    const filters = "per_page=1&start_date=2031-01-01+00%3A00%3A00&end_date=2031-12-31+23%3A59%3A59&ml_language=en";
    expect(first.headers.get("link")).toBe(
      [
        `<${base}?page=2&${filters}>; rel="next"`,
        `<${base}?${filters}>; rel="first"`,
        `<${base}?page=4&${filters}>; rel="last"`,
        discovery,
      ].join(", "),
    );
    expect(first.body.next_rest_url).toBe(`${base}?page=2&${filters}`);
    const second = await server.call("GET /events", { ...german, query: `${query}&page=2` });
    expect(second.headers.get("link")).toBe(
      [
        `<${base}?page=3&${filters}>; rel="next"`,
        `<${base}?${filters}>; rel="prev"`,
        `<${base}?${filters}>; rel="first"`,
        `<${base}?page=4&${filters}>; rel="last"`,
        discovery,
      ].join(", "),
    );
    const lone = await server.call("GET /events", { query: "start_date=2031-01-01&end_date=2031-12-31" });
    expect(lone.headers.get("link")).toBe(discovery);
    const tags = await server.call("GET /tags", { base: `/fr${API}`, query: { per_page: 1 } });
    expect(tags.headers.get("link") ?? "").not.toContain("/cal/events/v1/tags");
  });

  it("documents the validators, the conditional headers, 304 and 412 in the OpenAPI document", async () => {
    const document = await documentOf(server);
    const read = operationOf(document, "/events/{id}", "get");
    const headerNames = (method: "get" | "patch") =>
      (operationOf(document, "/events/{id}", method).parameters ?? []).flatMap((parameter) =>
        "in" in parameter && parameter.in === "header" ? [parameter.name] : [],
      );
    expect(headerNames("get")).toEqual(["If-None-Match", "If-Modified-Since"]);
    expect(headerNames("patch")).toEqual(["If-Match", "If-Unmodified-Since"]);
    expect(Object.keys(responseOf(read, "200").headers ?? {}).sort()).toEqual([
      "Cache-Control",
      "ETag",
      "Last-Modified",
      "Vary",
    ]);
    expect(responseOf(read, "304").description).toMatch(/^Not Modified/);
    const remove = operationOf(document, "/events/{id}", "delete");
    expect(responseOf(remove, "412").content?.["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    expect(Object.keys(operationOf(document, "/events", "post").responses ?? {})).not.toContain("412");
  });

  it("sends nosniff on every answer, and a Content-Security-Policy and Referrer-Policy on the explorer page", async () => {
    for (const path of [API, `${API}/events/999999`, "/elsewhere", "/healthz", "/docs/assets/swagger-ui.css"]) {
      const { headers } = await server.rest("GET", path);
      expect({ path, nosniff: headers.get("x-content-type-options"), poweredBy: headers.get("x-powered-by") }).toEqual({
        path,
        nosniff: "nosniff",
        poweredBy: null,
      });
    }
    for (const path of ["/docs", `${API}/doc`]) {
      const { headers } = await server.rest("GET", path, { headers: { accept: "text/html" } });
      expect(headers.get("content-security-policy")).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[^']+'/);
      expect(headers.get("referrer-policy")).toBe("no-referrer");
    }
  });
});

/** The body of a GET as sent on the wire (fetch would decode it). */
async function rawBody(url: string, encoding: string): Promise<Buffer> {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    request(url, { headers: { "accept-encoding": encoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(Buffer.concat(chunks)));
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

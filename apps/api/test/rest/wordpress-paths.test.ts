import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import type { NamespaceIndex } from "../../src/rest/namespace-index.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { useTestServer } from "../support/server.ts";
import { type ApiDocument, operationOf } from "./api-document.ts";

const WP = "/wp-json/tribe/events/v1";
const CAL = "/cal/events/v1";
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** `/events/{id}.ics` → `/events/(?P<id>\d+).ics`, as the index names a document path. */
function indexKeyOf(namespace: string, path: string): string {
  return `/${namespace}${path}`.replace("{id}", "(?P<id>\\d+)").replace("{slug}", "(?P<slug>[^/]+)");
}

interface RootIndex {
  name: string;
  url: string;
  home: string;
  namespaces: string[];
  routes: Record<string, { namespace: string; methods: string[]; _links?: { self: Array<{ href: string }> } }>;
}

// The index, the document and the discovery header do not touch data: one database kind is enough.
describe("WordPress's paths and discovery", () => {
  const server = useTestServer("sqlite", { ical: { siteName: "Valley events" } });
  const discovery = () => `<${server.origin}/wp-json/>; rel="https://api.w.org/"`;

  it("serves the namespace index under /wp-json/tribe/events/v1 in WordPress's namespace, linked to its own root", async () => {
    const { status, body } = await server.rest<NamespaceIndex>("GET", WP);
    expect(status).toBe(200);
    expect(body.namespace).toBe("tribe/events/v1");
    expect(body._links.up).toEqual([{ href: `${server.origin}/wp-json/` }]);
    expect(body.routes["/tribe/events/v1/events"]).toMatchObject({
      namespace: "tribe/events/v1",
      methods: ["GET", "POST"],
      _links: { self: [{ href: `${server.origin}${WP}/events` }] },
    });
    const german = (await server.rest<NamespaceIndex>("GET", `/de${WP}`)).body;
    expect(german.routes["/tribe/events/v1/venues"]?._links?.self).toEqual([
      { href: `${server.origin}/de${WP}/venues` },
    ]);
    expect(german._links.up).toEqual([{ href: `${server.origin}/wp-json/` }]);
    const other = await server.rest<RestErrorBody>("GET", WP, { query: { namespace: "cal/events/v1" } });
    expect([other.status, other.body.code]).toEqual([404, "rest_invalid_namespace"]);
  });

  it("lists in the index every path the document has, and the same routes under either root", async () => {
    for (const [root, namespace] of [
      [CAL, "cal/events/v1"],
      [WP, "tribe/events/v1"],
    ] as const) {
      const index = (await server.rest<NamespaceIndex>("GET", root)).body;
      const document = (await server.rest<ApiDocument>("GET", `${root}/doc`)).body;
      const documented = Object.keys(document.paths ?? {}).map((path) => indexKeyOf(namespace, path));
      expect(Object.keys(index.routes).sort()).toEqual([`/${namespace}`, `/${namespace}/doc`, ...documented].sort());
    }
  });

  it("names the root the document was asked by among its servers", async () => {
    const document = (await server.rest<ApiDocument>("GET", `${WP}/doc`)).body;
    expect(document.servers?.map(({ url }) => url)).toEqual([
      `${server.origin}${WP}/`,
      `${server.origin}/{language}${WP}/`,
    ]);
  });

  it("declares per_page's maximum of 50 in the document and the index alike", async () => {
    const document = (await server.rest<ApiDocument>("GET", `${CAL}/doc`)).body;
    const documented = operationOf(document, "/events", "get").parameters?.find(
      (parameter) => "name" in parameter && parameter.name === "per_page",
    );
    expect(documented).toMatchObject({ schema: { type: "integer", minimum: 1, maximum: 50 } });
    const index = (await server.rest<NamespaceIndex>("GET", CAL)).body;
    for (const list of ["events", "venues", "organizers", "categories", "tags"]) {
      const endpoint = index.routes[`/cal/events/v1/${list}`]?.endpoints.find(({ methods }) => methods[0] === "GET");
      expect({ list, per_page: endpoint?.args.per_page }).toEqual({
        list,
        per_page: expect.objectContaining({ type: "integer", minimum: 1, maximum: 50, default: 9 }),
      });
    }
  });

  it("answers WordPress's root index at /wp-json/, listing the namespace and its routes", async () => {
    const { status, body } = await server.rest<RootIndex>("GET", "/wp-json/");
    expect(status).toBe(200);
    expect({ name: body.name, url: body.url, home: body.home, namespaces: body.namespaces }).toEqual({
      name: "Valley events",
      url: server.origin,
      home: server.origin,
      namespaces: ["tribe/events/v1"],
    });
    expect(body.routes["/"]?._links?.self).toEqual([{ href: `${server.origin}/wp-json/` }]);
    expect(body.routes["/tribe/events/v1"]?._links?.self).toEqual([{ href: `${server.origin}${WP}` }]);
    expect(body.routes["/tribe/events/v1/events/(?P<id>\\d+)"]?.methods).toEqual([
      "GET",
      "POST",
      "PUT",
      "PATCH",
      "DELETE",
    ]);
    const german = (await server.rest<RootIndex>("GET", "/de/wp-json")).body;
    expect(german.routes["/tribe/events/v1/events"]?._links?.self).toEqual([
      { href: `${server.origin}/de${WP}/events` },
    ]);
  });

  it("sends WordPress's discovery link with every answer: API, errors, pages and the site root", async () => {
    for (const path of [CAL, `${WP}/events`, `${CAL}/events/999`, "/wp-json/", "/", "/docs", "/nothing-here"]) {
      const { headers } = await server.rest("GET", path);
      expect({ path, link: headers.get("link") }).toEqual({ path, link: discovery() });
    }
  });

  it("answers GET / with pointers to the API: JSON for clients, a page for browsers", async () => {
    const json = await server.rest("GET", "/");
    expect(json.status).toBe(200);
    expect(json.body).toEqual({
      name: "Valley events",
      api: `${server.origin}${CAL}`,
      document: `${server.origin}${CAL}/doc`,
      explorer: `${server.origin}/docs`,
      wordpress: `${server.origin}/wp-json/`,
    });
    const page = await server.rest("GET", "/", { headers: { accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.text).toContain(`<a href="${server.origin}/docs">`);
    expect(page.text).toContain(`<a href="${server.origin}${CAL}">`);
  });
});

describe("the discovery link of answers the response cache keeps", () => {
  const server = useTestServer("sqlite", { cacheBytes: 1024 * 1024 });

  it("is sent once, on the first answer and on the hits alike", async () => {
    const links: Array<string | null> = [];
    for (const accept of ["application/json", "application/json", "*/*"]) {
      links.push((await server.rest("GET", `${WP}/venues`, { headers: { accept } })).headers.get("link"));
    }
    expect(links).toEqual([0, 1, 2].map(() => `<${server.origin}/wp-json/>; rel="https://api.w.org/"`));
  });
});

describe("invalid parameters, in WordPress's words", () => {
  const server = useTestServer("sqlite");

  it.each([
    ["per_page", "-5", "per_page must be greater than or equal to 1"],
    ["per_page", "0", "per_page must be greater than or equal to 1"],
    ["per_page", "ten", "per_page is not of type number."],
    ["page", "-1", "page must be greater than or equal to 1"],
    ["ml_language", "es", "ml_language is not one of zh-hans, en, fr, and de."],
  ])("%s=%s answers 400 naming the bound it breaks", async (name, value, reason) => {
    for (const base of [CAL, WP]) {
      const { body } = await server.fail("GET /events", 400, { base, query: { [name]: value } });
      expect(body).toEqual({
        code: "rest_invalid_param",
        message: `Invalid parameter(s): ${name}`,
        data: { status: 400, params: { [name]: reason } },
      });
    }
  });

  it("reads a per_page above 50 as 50, as the plugin does, and echoes the number served", async () => {
    const { body } = await server.call("GET /events", { base: WP, query: { per_page: 100 } });
    expect(new URL(body.rest_url).searchParams.get("per_page")).toBe("50");
  });
});

describe.each(PROVIDERS)("links under WordPress's path (%s)", (provider) => {
  const server = useTestServer(provider);

  it("keeps rest_url, next_rest_url, previous_rest_url and the Link header on the root the client came by", async () => {
    for (const day of [1, 2, 3, 4, 5]) {
      await server.call("POST /events", {
        as: server.users.administrator,
        body: { title: `Talk ${day}`, start_date: `2030-05-0${day} 18:00:00`, end_date: `2030-05-0${day} 19:00:00` },
      });
    }
    for (const base of [WP, `/en${WP}`]) {
      const { body, headers } = await server.call("GET /events", {
        base,
        query: { start_date: "2030-05-01", end_date: "2030-05-31", per_page: 2, page: 2 },
      });
      const root = `${server.origin}${base}`;
      expect(body.total).toBe(5);
      for (const link of [body.rest_url, body.next_rest_url, body.previous_rest_url]) {
        expect(link?.startsWith(`${root}/events`)).toBe(true);
      }
      for (const event of body.events) expect(event.rest_url).toBe(`${root}/events/${event.id}`);
      const relations = (headers.get("link") ?? "").split(", ").map((part) => part.replace(/;.*/, ""));
      expect(relations.slice(0, 4).every((target) => target.startsWith(`<${root}/events`))).toBe(true);
      expect(headers.get("link")).toContain(`<${server.origin}/wp-json/>; rel="https://api.w.org/"`);
      expect(headers.get("x-wp-total")).toBe("5");
    }
  });

  it("writes through WordPress's path as through the documented one", async () => {
    const created = await server.call("POST /events", {
      base: WP,
      as: server.users.editor,
      body: { title: "Board meeting", start_date: "2030-06-01 10:00:00", end_date: "2030-06-01 11:00:00" },
      status: 201,
    });
    expect(created.body.rest_url).toBe(`${server.origin}${WP}/events/${created.body.id}`);
    const read = await server.call("GET /events/{id}", { params: { id: created.body.id } });
    expect(read.body.title).toBe("Board meeting");
  });
});

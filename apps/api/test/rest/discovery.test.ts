import { PROVIDERS } from "@calendar/core/testing";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import type { NamespaceIndex } from "../../src/rest/namespace-index.ts";
import { first } from "../support/narrow.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { useTestServer } from "../support/server.ts";
import {
  type ApiDocument,
  type DocumentedOperation,
  documentOf,
  jsonBodyOf,
  operationOf,
  operationsOf,
  responseOf,
} from "./api-document.ts";

const ROOT = "/cal/events/v1";
const ITEM_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const RESOURCES = ["events", "venues", "organizers", "categories", "tags"];
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** The document as the validator takes it (an OpenAPI 3.x document object). */
type ValidatorDocument = Extract<Parameters<typeof validate>[0], { openapi: string }>;

/** A route of the namespace index; it must be listed. */
function routeOf(index: NamespaceIndex, route: string) {
  const entry = index.routes[route];
  if (!entry) throw new Error(`The index has no route ${route}.`);
  return entry;
}

/** The arguments of the endpoint of a route that serves `method`. */
function argsOf(index: NamespaceIndex, route: string, method: string) {
  const endpoint = routeOf(index, route).endpoints.find((candidate) => candidate.methods[0] === method);
  if (!endpoint) throw new Error(`The index has no ${method} endpoint of ${route}.`);
  return endpoint.args;
}

const selfLinkOf = (index: NamespaceIndex, route: string) => routeOf(index, route)._links?.self[0]?.href;

/** The route table of the interface (spec section 4), as the index names its routes. */
const EXPECTED_ROUTES: Record<string, string[]> = {
  [ROOT]: ["GET"],
  [`${ROOT}/doc`]: ["GET"],
  [`${ROOT}/events`]: ["GET", "POST"],
  [`${ROOT}/events/(?P<id>\\d+)`]: ITEM_METHODS,
  [`${ROOT}/events/by-slug/(?P<slug>[^/]+)`]: ITEM_METHODS,
  [`${ROOT}/events/(?P<id>\\d+)/occurrences`]: ["GET"],
  [`${ROOT}/events.ics`]: ["GET"],
  [`${ROOT}/events/(?P<id>\\d+).ics`]: ["GET"],
  [`${ROOT}/events/by-slug/(?P<slug>[^/]+).ics`]: ["GET"],
  [`${ROOT}/import`]: ["POST"],
  [`${ROOT}/venues`]: ["GET", "POST"],
  [`${ROOT}/venues/(?P<id>\\d+)`]: ITEM_METHODS,
  [`${ROOT}/venues/by-slug/(?P<slug>[^/]+)`]: ITEM_METHODS,
  [`${ROOT}/organizers`]: ["GET", "POST"],
  [`${ROOT}/organizers/(?P<id>\\d+)`]: ITEM_METHODS,
  [`${ROOT}/organizers/by-slug/(?P<slug>[^/]+)`]: ITEM_METHODS,
  [`${ROOT}/categories`]: ["GET", "POST"],
  [`${ROOT}/categories/(?P<id>\\d+)`]: ITEM_METHODS,
  [`${ROOT}/tags`]: ["GET", "POST"],
  [`${ROOT}/tags/(?P<id>\\d+)`]: ITEM_METHODS,
  [`${ROOT}/changes`]: ["GET"],
  [`${ROOT}/webhooks`]: ["GET", "POST"],
  [`${ROOT}/webhooks/(?P<id>\\d+)`]: ["GET", "POST", "DELETE"],
  [`${ROOT}/webhooks/(?P<id>\\d+)/rotate-secret`]: ["POST"],
  [`${ROOT}/webhooks/(?P<id>\\d+)/deliveries`]: ["GET"],
};

// The index and the document do not touch data: one database kind is enough.
describe("namespace index and API document", () => {
  const server = useTestServer("sqlite");

  describe("GET /cal/events/v1", () => {
    it("lists every route of the interface with its methods", async () => {
      const { status, body } = await server.rest<NamespaceIndex>("GET", ROOT);
      expect(status).toBe(200);
      expect(body.namespace).toBe("cal/events/v1");
      const methods = Object.fromEntries(
        Object.entries(body.routes).map(([route, value]) => [route, [...value.methods].sort()]),
      );
      expect(methods).toEqual(
        Object.fromEntries(Object.entries(EXPECTED_ROUTES).map(([route, list]) => [route, [...list].sort()])),
      );
    });

    it("lists ml_language, with its values, among the args of every endpoint", async () => {
      const { body } = await server.rest<NamespaceIndex>("GET", ROOT);
      for (const [route, value] of Object.entries(body.routes)) {
        for (const endpoint of value.endpoints) {
          expect({ route, arg: endpoint.args.ml_language }).toEqual({
            route,
            arg: expect.objectContaining({ type: "string", enum: ["zh-hans", "en", "fr", "de"], required: false }),
          });
        }
      }
    });

    it("describes args with their type, default and required flag", async () => {
      const { body } = await server.rest<NamespaceIndex>("GET", ROOT);
      const root = first(routeOf(body, ROOT).endpoints).args;
      expect(root.namespace).toMatchObject({ type: "string", default: "cal/events/v1", required: false });
      expect(root.context).toMatchObject({ type: "string", default: "view", required: false });
      const list = argsOf(body, `${ROOT}/events`, "GET");
      expect(list.page).toMatchObject({ type: "integer", default: 1, required: false });
      expect(list.per_page).toMatchObject({ type: "integer", default: 9, required: false });
      const create = argsOf(body, `${ROOT}/events`, "POST");
      expect([create.title?.required, create.start_date?.required, create.end_date?.required]).toEqual([
        true,
        true,
        true,
      ]);
    });

    it("links routes without parameters to the request's own root, keeping the language prefix or parameter", async () => {
      const plain = (await server.rest<NamespaceIndex>("GET", ROOT)).body;
      expect(selfLinkOf(plain, `${ROOT}/events`)).toBe(`${server.origin}${ROOT}/events`);
      expect(routeOf(plain, `${ROOT}/events/(?P<id>\\d+)`)._links).toBeUndefined();
      expect(plain._links.up[0]?.href).toBe(`${server.origin}/`);
      const german = (await server.rest<NamespaceIndex>("GET", `/de${ROOT}`)).body;
      expect(selfLinkOf(german, `${ROOT}/events`)).toBe(`${server.origin}/de${ROOT}/events`);
      const french = (await server.rest<NamespaceIndex>("GET", ROOT, { query: { ml_language: "fr" } })).body;
      expect(selfLinkOf(french, `${ROOT}/events`)).toBe(`${server.origin}${ROOT}/events?ml_language=fr`);
    });

    it("rejects an unknown namespace, context or language", async () => {
      const namespace = await server.rest<RestErrorBody>("GET", ROOT, { query: { namespace: "wp/v2" } });
      expect(namespace.status).toBe(404);
      expect(namespace.body.code).toBe("rest_invalid_namespace");
      const context = await server.rest<RestErrorBody>("GET", ROOT, { query: { context: "admin" } });
      expect(context.status).toBe(400);
      expect(context.body.data.params).toHaveProperty("context");
      const language = await server.rest<RestErrorBody>("GET", ROOT, { query: { ml_language: "es" } });
      expect(language.status).toBe(400);
      expect(language.body.data.params).toHaveProperty("ml_language");
    });
  });

  describe("GET /cal/events/v1/doc", () => {
    it("is a valid OpenAPI 3 document", async () => {
      const { status, body } = await server.rest<ValidatorDocument>("GET", `${ROOT}/doc`);
      expect(status).toBe(200);
      expect(body.openapi).toMatch(/^3\./);
      const result = await validate(structuredClone(body));
      expect(result.valid ? "valid" : compileErrors(result)).toBe("valid");
    });

    it("names the request's own API root, with a trailing slash, as its first server", async () => {
      const firstServerOf = async (path: string) =>
        (await server.rest<ApiDocument>("GET", path)).body.servers?.[0]?.url;
      expect(await firstServerOf(`${ROOT}/doc`)).toBe(`${server.origin}${ROOT}/`);
      expect(await firstServerOf(`/fr${ROOT}/doc`)).toBe(`${server.origin}/fr${ROOT}/`);
    });

    it("documents every operation, path parameters as required, 201 on creates and the list headers", async () => {
      const document = await documentOf(server);
      expect(Object.keys(document.paths ?? {}).sort()).toEqual(
        [
          "/events",
          "/events/{id}",
          "/events/{id}/occurrences",
          "/events/by-slug/{slug}",
          "/events.ics",
          "/events/{id}.ics",
          "/events/by-slug/{slug}.ics",
          "/venues",
          "/venues/{id}",
          "/venues/by-slug/{slug}",
          "/organizers",
          "/organizers/{id}",
          "/organizers/by-slug/{slug}",
          "/categories",
          "/categories/{id}",
          "/tags",
          "/tags/{id}",
          "/changes",
          "/import",
          "/webhooks",
          "/webhooks/{id}",
          "/webhooks/{id}/rotate-secret",
          "/webhooks/{id}/deliveries",
        ].sort(),
      );
      for (const { path, method, operation } of operationsOf(document)) {
        for (const parameter of operation.parameters ?? []) {
          if ("in" in parameter && parameter.in === "path")
            expect({ path, method, required: parameter.required }).toEqual({ path, method, required: true });
        }
        for (const code of Object.keys(operation.responses ?? {})) {
          if (Number(code) >= 400) {
            expect({
              path,
              method,
              code,
              schema: responseOf(operation, code).content?.["application/json"]?.schema,
            }).toEqual({
              path,
              method,
              code,
              schema: { $ref: "#/components/schemas/Error" },
            });
          }
        }
      }
      for (const collection of ["/events", "/venues", "/organizers", "/categories", "/tags"]) {
        expect(Object.keys(operationOf(document, collection, "post").responses ?? {})).toContain("201");
        const listHeaders = responseOf(operationOf(document, collection, "get"), "200").headers;
        expect(Object.keys(listHeaders ?? {}).sort()).toEqual([
          "Cache-Control",
          "ETag",
          "Link",
          "Vary",
          "X-TEC-Total",
          "X-TEC-TotalPages",
          "X-WP-Total",
          "X-WP-TotalPages",
        ]);
      }
      expect(Object.keys(document.paths?.["/events/{id}"] ?? {}).sort()).toEqual([
        "delete",
        "get",
        "patch",
        "post",
        "put",
      ]);
    });

    it("gives every operation an id, a summary, a description and the tag of its resource", async () => {
      const document = await documentOf(server);
      expect(document.tags?.map((tag) => tag.name)).toEqual([...RESOURCES, "changes", "import", "webhooks"]);
      for (const tag of document.tags ?? []) expect(tag.description).toEqual(expect.any(String));
      const incomplete = operationsOf(document).filter(
        ({ path, operation }) =>
          !operation.operationId ||
          !operation.summary ||
          !operation.description ||
          operation.tags?.length !== 1 ||
          !path.startsWith(`/${operation.tags[0]}`),
      );
      expect(incomplete.map(({ path, method }) => `${method} ${path}`)).toEqual([]);
    });

    it("describes every parameter and every body field", async () => {
      const undescribed: string[] = [];
      for (const { path, method, operation } of operationsOf(await documentOf(server))) {
        for (const parameter of operation.parameters ?? []) {
          const name = "$ref" in parameter ? parameter.$ref : `${parameter.in} ${parameter.name}`;
          if (!parameter.description) undescribed.push(`${method} ${path} ${name}`);
        }
        const schema = jsonBodyOf(operation)?.schema;
        const fields = schema && !("$ref" in schema) ? schema.properties : undefined;
        for (const [name, field] of Object.entries(fields ?? {})) {
          if (!field.description) undescribed.push(`${method} ${path} body ${name}`);
        }
      }
      expect(undescribed).toEqual([]);
    });

    it("has an example body on every create, and none elsewhere", async () => {
      const examples = operationsOf(await documentOf(server))
        .filter(({ operation }) => jsonBodyOf(operation)?.example)
        .map(({ path, method }) => `${method} ${path}`);
      expect(examples.sort()).toEqual(RESOURCES.map((resource) => `post /${resource}`).sort());
    });

    it("requires a token on writes and on the webhooks, and takes one optionally on other reads", async () => {
      const document = await documentOf(server);
      expect(Object.keys(document.components?.securitySchemes ?? {})).toEqual(["bearer", "basic"]);
      for (const { path, method, operation } of operationsOf(document)) {
        const optional = method === "get" && !path.startsWith("/webhooks");
        const expected = optional ? [{}, { bearer: [] }, { basic: [] }] : [{ bearer: [] }, { basic: [] }];
        expect({ path, method, security: operation.security }).toEqual({ path, method, security: expected });
      }
    });

    it("describes each error response of an operation in its own terms, in the error envelope", async () => {
      const document = await documentOf(server);
      const error = (path: string, method: DocumentedOperation["method"], status: string) =>
        responseOf(operationOf(document, path, method), status).description;
      expect(error("/events/{id}", "delete", "410")).toBe("Already in the trash (event-is-in-trash).");
      expect(error("/events/{id}", "get", "404")).toBe("No event with that id (rest-event-not-found).");
      expect(error("/venues/{id}", "post", "401")).toBe("Authentication required");
      expect(error("/events", "post", "429")).toMatch(/^Too many writes/);
      expect(error("/events", "get", "429")).toMatch(/^Too many failed authentications/);
      for (const { operation } of operationsOf(document)) {
        expect(responseOf(operation, "503").content?.["application/json"]?.schema).toEqual({
          $ref: "#/components/schemas/Error",
        });
      }
      const schemas = Object.keys(document.components?.schemas ?? {});
      expect(schemas.filter((name) => name.startsWith("error."))).toEqual([]);
    });

    it("serves JSON to API clients, with Vary: Accept", async () => {
      const accepts: Array<Record<string, string>> = [
        {},
        { accept: "*/*" },
        { accept: "application/json" },
        { accept: "application/json, text/html;q=0.5" },
      ];
      for (const headers of accepts) {
        const { status, headers: sent, body } = await server.rest<ApiDocument>("GET", `${ROOT}/doc`, { headers });
        expect({
          headers,
          status,
          type: sent.get("content-type"),
          vary: sent.get("vary"),
          openapi: body.openapi,
        }).toEqual({
          headers,
          status: 200,
          type: "application/json; charset=utf-8",
          vary: "Accept, Authorization, accept-encoding",
          openapi: "3.1.0",
        });
      }
    });
  });

  describe("the explorer page", () => {
    it("is what browsers get at /cal/events/v1/doc, loading the same URL (with its query) as the document", async () => {
      const { status, headers, text } = await server.rest("GET", `/fr${ROOT}/doc`, {
        query: { ml_language: "de" },
        headers: { accept: BROWSER_ACCEPT },
      });
      expect(status).toBe(200);
      expect(headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(headers.get("vary")).toBe("Accept, Authorization, accept-encoding");
      expect(text).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
      expect(text).toContain(`url: "/fr${ROOT}/doc?ml_language=de",`);
    });

    it("is served at /docs for the API's own document", async () => {
      const { status, headers, text } = await server.rest("GET", "/docs");
      expect(status).toBe(200);
      expect(headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(text).toContain(`url: "${ROOT}/doc",`);
    });

    it("still rejects an invalid language with the error envelope", async () => {
      const { status, body } = await server.rest<RestErrorBody>("GET", `${ROOT}/doc`, {
        query: { ml_language: "xx" },
        headers: { accept: BROWSER_ACCEPT },
      });
      expect(status).toBe(400);
      expect(body.code).toBe("rest_invalid_param");
    });

    it("serves its assets from the installed swagger-ui-dist, and nothing else of it", async () => {
      const expected = {
        "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
        "swagger-ui.css": "text/css; charset=utf-8",
        "favicon-32x32.png": "image/png",
        "favicon-16x16.png": "image/png",
      };
      for (const [file, type] of Object.entries(expected)) {
        const { status, headers, text } = await server.rest("GET", `/docs/assets/${file}`);
        expect({ file, status, type: headers.get("content-type"), empty: text === "" }).toEqual({
          file,
          status: 200,
          type,
          empty: false,
        });
      }
      for (const file of ["package.json", "index.html", "swagger-ui-bundle.js.map", "..%2Fpackage.json"]) {
        const { status, body } = await server.rest<RestErrorBody>("GET", `/docs/assets/${file}`);
        expect({ file, status, code: body.code }).toEqual({ file, status: 404, code: "not_found" });
      }
    });
  });
});

describe.each(PROVIDERS)("the API document against the API (%s)", (provider) => {
  const server = useTestServer(provider);

  it("accepts each create example as it stands (201)", async () => {
    for (const { path, operation } of operationsOf(await documentOf(server))) {
      const example = jsonBodyOf(operation)?.example;
      if (!example) continue;
      // A created item has no `code`: only an error body does.
      const { status, body } = await server.rest<Partial<RestErrorBody>>("POST", `${ROOT}${path}`, {
        body: example,
        as: server.users.editor,
      });
      expect({ path, status, code: body.code }).toEqual({ path, status: 201, code: undefined });
    }
  });

  it("documents the status of every failure the operations answer", async () => {
    const undocumented: string[] = [];
    const check = (entry: DocumentedOperation, what: string, status: number) => {
      if (!(String(status) in (entry.operation.responses ?? {})))
        undocumented.push(`${entry.method} ${entry.path} ${what}: ${status}`);
    };
    for (const entry of operationsOf(await documentOf(server))) {
      const method = entry.method.toUpperCase();
      const path = `${ROOT}${entry.path.replace("{id}", "999999").replace("{slug}", "no-such-item")}`;
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      const badLanguage = await server.rest(method, path, {
        query: { ml_language: "xx" },
        body,
        as: server.users.administrator,
      });
      check(entry, "invalid parameter", badLanguage.status);
      if (method !== "GET") check(entry, "anonymous", (await server.rest(method, path, { body })).status);
      if (method !== "GET") {
        check(entry, "subscriber", (await server.rest(method, path, { body, as: server.users.subscriber })).status);
        const text = { body: "title=x", contentType: "text/plain", as: server.users.administrator };
        check(entry, "text body", (await server.rest(method, path, text)).status);
      }
      if (path.includes("999999") || path.includes("no-such-item")) {
        check(entry, "missing", (await server.rest(method, path, { body, as: server.users.administrator })).status);
      }
    }
    expect(undocumented).toEqual([]);
  });
});

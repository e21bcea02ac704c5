import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

const ROOT = "/cal/events/v1";
const ITEM_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** The route table of the interface (spec section 4), as the index names its routes. */
const EXPECTED_ROUTES: Record<string, string[]> = {
  [ROOT]: ["GET"],
  [`${ROOT}/doc`]: ["GET"],
  [`${ROOT}/events`]: ["GET", "POST"],
  [`${ROOT}/events/(?P<id>\\d+)`]: ITEM_METHODS,
  [`${ROOT}/events/by-slug/(?P<slug>[^/]+)`]: ITEM_METHODS,
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
};

// The index and the document do not touch data: one database kind is enough.
describe("namespace index and API document", () => {
  const server = useTestServer("sqlite");

  describe("GET /cal/events/v1", () => {
    it("lists every route of the interface with its methods", async () => {
      const { status, body } = await server.rest("GET", ROOT);
      expect(status).toBe(200);
      expect(body.namespace).toBe("cal/events/v1");
      const methods = Object.fromEntries(
        Object.entries(body.routes as Record<string, { methods: string[] }>).map(([route, value]) => [
          route,
          [...value.methods].sort(),
        ]),
      );
      expect(methods).toEqual(
        Object.fromEntries(Object.entries(EXPECTED_ROUTES).map(([route, list]) => [route, [...list].sort()])),
      );
    });

    it("lists ml_language, with its values, among the args of every endpoint", async () => {
      const { body } = await server.rest("GET", ROOT);
      for (const [route, value] of Object.entries(body.routes as Record<string, any>)) {
        for (const endpoint of value.endpoints) {
          expect({ route, arg: endpoint.args.ml_language }).toEqual({
            route,
            arg: expect.objectContaining({ type: "string", enum: ["zh-hans", "en", "fr", "de"], required: false }),
          });
        }
      }
    });

    it("describes args with their type, default and required flag", async () => {
      const { body } = await server.rest("GET", ROOT);
      const root = body.routes[ROOT].endpoints[0].args;
      expect(root.namespace).toMatchObject({ type: "string", default: "cal/events/v1", required: false });
      expect(root.context).toMatchObject({ type: "string", default: "view", required: false });
      const list = body.routes[`${ROOT}/events`].endpoints.find((e: any) => e.methods[0] === "GET").args;
      expect(list.page).toMatchObject({ type: "integer", default: 1, required: false });
      expect(list.per_page).toMatchObject({ type: "integer", default: 9, required: false });
      const create = body.routes[`${ROOT}/events`].endpoints.find((e: any) => e.methods[0] === "POST").args;
      expect(create.title.required).toBe(true);
      expect(create.start_date.required).toBe(true);
      expect(create.end_date.required).toBe(true);
    });

    it("links routes without parameters to the request's own root, keeping the language prefix or parameter", async () => {
      const plain = (await server.rest("GET", ROOT)).body;
      expect(plain.routes[`${ROOT}/events`]._links.self[0].href).toBe(`${server.origin}${ROOT}/events`);
      expect(plain.routes[`${ROOT}/events/(?P<id>\\d+)`]._links).toBeUndefined();
      expect(plain._links.up[0].href).toBe(`${server.origin}/`);
      const german = (await server.rest("GET", `/de${ROOT}`)).body;
      expect(german.routes[`${ROOT}/events`]._links.self[0].href).toBe(`${server.origin}/de${ROOT}/events`);
      const french = (await server.rest("GET", ROOT, { query: { ml_language: "fr" } })).body;
      expect(french.routes[`${ROOT}/events`]._links.self[0].href).toBe(`${server.origin}${ROOT}/events?ml_language=fr`);
    });

    it("rejects an unknown namespace, context or language", async () => {
      const namespace = await server.rest("GET", ROOT, { query: { namespace: "wp/v2" } });
      expect(namespace.status).toBe(404);
      expect(namespace.body.code).toBe("rest_invalid_namespace");
      const context = await server.rest("GET", ROOT, { query: { context: "admin" } });
      expect(context.status).toBe(400);
      expect(context.body.data.params).toHaveProperty("context");
      const language = await server.rest("GET", ROOT, { query: { ml_language: "es" } });
      expect(language.status).toBe(400);
      expect(language.body.data.params).toHaveProperty("ml_language");
    });
  });

  describe("GET /cal/events/v1/doc", () => {
    it("is a valid OpenAPI 3 document", async () => {
      const { status, body } = await server.rest("GET", `${ROOT}/doc`);
      expect(status).toBe(200);
      expect(body.openapi).toMatch(/^3\./);
      const result = await validate(structuredClone(body));
      expect(result.valid ? "valid" : compileErrors(result)).toBe("valid");
    });

    it("names the request's own API root, with a trailing slash, as its first server", async () => {
      expect((await server.rest("GET", `${ROOT}/doc`)).body.servers[0].url).toBe(`${server.origin}${ROOT}/`);
      expect((await server.rest("GET", `/fr${ROOT}/doc`)).body.servers[0].url).toBe(`${server.origin}/fr${ROOT}/`);
    });

    it("documents every operation, path parameters as required, 201 on creates and the list headers", async () => {
      const { body } = await server.rest("GET", `${ROOT}/doc`);
      const paths = body.paths as Record<string, Record<string, any>>;
      expect(Object.keys(paths).sort()).toEqual(
        [
          "/events",
          "/events/{id}",
          "/events/by-slug/{slug}",
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
        ].sort(),
      );
      for (const [path, operations] of Object.entries(paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          for (const parameter of operation.parameters ?? []) {
            if (parameter.in === "path")
              expect({ path, method, required: parameter.required }).toEqual({ path, method, required: true });
          }
          for (const [code, response] of Object.entries(operation.responses as Record<string, any>)) {
            if (Number(code) >= 400) {
              expect(response.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
            }
          }
        }
      }
      for (const collection of ["/events", "/venues", "/organizers", "/categories", "/tags"]) {
        expect(Object.keys(paths[collection]?.post.responses)).toContain("201");
        expect(Object.keys(paths[collection]?.get.responses["200"].headers).sort()).toEqual([
          "X-TEC-Total",
          "X-TEC-TotalPages",
          "X-WP-Total",
          "X-WP-TotalPages",
        ]);
      }
      expect(Object.keys(paths["/events/{id}"] ?? {}).sort()).toEqual(["delete", "get", "patch", "post", "put"]);
    });
  });
});

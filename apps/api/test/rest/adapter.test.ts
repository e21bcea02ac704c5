import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { NO_ROUTE, paramNames } from "../support/errors.ts";
import { fixtureRouters } from "../support/fixture-router.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { useTestServer } from "../support/server.ts";
import { fixtureClient, fixtureRejection, type Things } from "./fixture-client.ts";

const BASE = "/cal/events/v1";

describe.each(PROVIDERS)("REST adapter (%s)", (provider) => {
  const server = useTestServer(provider, { routers: fixtureRouters, bodyLimit: 4096 });

  describe("query values", () => {
    it("reads k[] keys, repeated keys and comma lists as id lists", async () => {
      for (const query of ["ids[]=1&ids[]=2", "ids%5B%5D=1&ids%5B%5D=2", "ids=1&ids=2", "ids=1,2", "ids=1, 2"]) {
        const { status, body } = await server.rest<Things["list"]>("GET", `${BASE}/things`, { query });
        expect({ query, status, ids: body.ids }).toEqual({ query, status: 200, ids: [1, 2] });
      }
      expect((await server.rest<Things["list"]>("GET", `${BASE}/things`, { query: "ids=7" })).body.ids).toEqual([7]);
    });

    it("reads WordPress booleans true/false/1/0 in any case", async () => {
      const cases: Array<[string, boolean]> = [
        ["true", true],
        ["TRUE", true],
        ["1", true],
        ["false", false],
        ["False", false],
        ["0", false],
      ];
      for (const [value, expected] of cases) {
        const { body } = await server.rest<Things["list"]>("GET", `${BASE}/things`, { query: { flag: value } });
        expect(body.flag).toBe(expected);
      }
    });

    it("rejects a bad boolean, id list or page with rest_invalid_param naming each parameter", async () => {
      const { status, body } = await server.rest<RestErrorBody>("GET", `${BASE}/things`, {
        query: "flag=yes&ids=1,x&page=0",
      });
      expect(status).toBe(400);
      expect(body.code).toBe("rest_invalid_param");
      expect(body.message).toBe("Invalid parameter(s): ids, flag, page");
      expect(paramNames(body).sort()).toEqual(["flag", "ids", "page"]);
      expect(body.data.status).toBe(400);
    });

    it("defaults page to 1 and per_page to 9, and clamps per_page to 50", async () => {
      expect((await server.rest<Things["list"]>("GET", `${BASE}/things`)).body).toMatchObject({ page: 1, per_page: 9 });
      const clamped = await server.rest<Things["list"]>("GET", `${BASE}/things`, { query: { per_page: 500 } });
      expect(clamped.body.per_page).toBe(50);
    });
  });

  describe("paths", () => {
    it("answers the bare base path without a trailing slash, and the item paths with one", async () => {
      expect((await server.rest("GET", BASE)).status).toBe(200);
      expect((await server.rest("GET", `${BASE}/`)).status).toBe(200);
      expect((await server.rest<Things["get"]>("GET", `${BASE}/things/3/`)).body.id).toBe(3);
    });

    it("treats a non-decimal id as an unknown route", async () => {
      for (const id of ["abc", "0x10", "1e1", "12.0", "-1", "by-slug"]) {
        const { status, body } = await server.rest("GET", `${BASE}/things/${id}`);
        expect({ id, status, body }).toEqual({
          id,
          status: 404,
          body: NO_ROUTE,
        });
      }
    });

    it("percent-decodes slugs", async () => {
      const slug = "café-concert.2025@home a+b";
      const bySlug = async (path: string) =>
        (await server.rest<Things["getBySlug"]>("GET", `${BASE}/things/by-slug/${path}`)).body.slug;
      expect(await bySlug(encodeURIComponent(slug))).toBe(slug);
      expect(await bySlug("caf%C3%A9")).toBe("café");
    });

    it("rejects a malformed percent-escape with a 400 envelope", async () => {
      const { status, body } = await server.rest("GET", `${BASE}/things/by-slug/%E0%A4%A`);
      expect({ status, body }).toEqual({
        status: 400,
        body: {
          code: "rest_invalid_url",
          message: "The URL is malformed (an invalid percent-escape?).",
          data: { status: 400 },
        },
      });
    });

    it("answers paths outside the API with a 404 envelope", async () => {
      const { status, body } = await server.rest<RestErrorBody>("GET", `/xx${BASE}/things`);
      expect({ status, code: body.code }).toEqual({ status: 404, code: "not_found" });
    });

    it("serves the language prefixes with the prefix's language, and an explicit ml_language wins", async () => {
      const list = (base: string, query?: Record<string, string>) =>
        server.rest<Things["list"]>("GET", `${base}/things`, { query });
      const german = await list(`/de${BASE}`);
      expect(german.body.language).toBe("de");
      expect(german.body.apiRoot).toBe(`${server.origin}/de${BASE}`);
      expect((await list(`/zh-hans${BASE}`)).body.language).toBe("zh-hans");
      expect((await list(`/fr${BASE}`, { ml_language: "de" })).body.language).toBe("de");
      expect((await list(BASE)).body.language).toBe("en");
    });

    it("rejects an unknown ml_language with rest_invalid_param naming it", async () => {
      for (const value of ["xx", "de-DE", " de"]) {
        const { status, body } = await server.rest<RestErrorBody>("GET", `${BASE}/things`, {
          query: { ml_language: value },
        });
        expect(status).toBe(400);
        expect(body.code).toBe("rest_invalid_param");
        expect(paramNames(body)).toEqual(["ml_language"]);
      }
    });

    it("answers unknown routes and methods with 404 rest_no_route", async () => {
      for (const [method, path] of [
        ["GET", `${BASE}/nothing`],
        ["PUT", `${BASE}/things`],
        ["DELETE", `${BASE}/things`],
      ] as const) {
        const { status, body } = await server.rest<RestErrorBody>(method, path);
        expect({ method, path, status, code: body.code }).toEqual({ method, path, status: 404, code: "rest_no_route" });
      }
    });
  });

  describe("writes", () => {
    it("creates with a JSON body and answers 201", async () => {
      const { status, body } = await server.rest("POST", `${BASE}/things`, {
        body: { title: "Concert", start: "tomorrow", tags: [1, "2"], flag: "false", nested: { name: "n" } },
      });
      expect(status).toBe(201);
      expect(body).toEqual({ title: "Concert", start: "tomorrow", tags: [1, 2], flag: false, nested: { name: "n" } });
    });

    it("accepts form-encoded bodies, with k[] arrays and nested keys", async () => {
      const { status, body } = await server.rest("POST", `${BASE}/things`, {
        form: "title=Form+event&start=now&tags[]=4&tags[]=5&flag=1&nested[name]=N%C3%BC",
      });
      expect(status).toBe(201);
      expect(body).toEqual({ title: "Form event", start: "now", tags: [4, 5], flag: true, nested: { name: "Nü" } });
      const charset = await server.rest<Things["create"]>("POST", `${BASE}/things`, {
        form: "title=x&start=y&tags=7,8",
        contentType: "application/x-www-form-urlencoded; charset=UTF-8",
      });
      expect(charset.body.tags).toEqual([7, 8]);
    });

    it("takes write parameters from the query string too, the body winning", async () => {
      const { status, body } = await server.rest("POST", `${BASE}/things`, {
        query: { title: "from query", start: "q", count: "3" },
        body: { title: "from body" },
      });
      expect(status).toBe(201);
      expect(body).toEqual({ title: "from body", start: "q", count: 3 });
    });

    it("updates through POST, PUT and PATCH on the item route, with or without a body", async () => {
      for (const method of ["POST", "PUT", "PATCH"]) {
        const { status, body } = await server.rest(method, `${BASE}/things/5`, { body: { title: "t" } });
        expect({ status, body }).toEqual({ status: 200, body: { id: 5, title: "t", method } });
      }
      const bare = await server.rest("POST", `${BASE}/things/5`);
      expect(bare.body).toEqual({ id: 5, method: "POST" });
    });

    it("reads DELETE parameters from the query string and from a body", async () => {
      expect((await server.rest("DELETE", `${BASE}/things/9`, { query: { force: "true" } })).body).toEqual({
        id: 9,
        force: true,
      });
      expect((await server.rest("DELETE", `${BASE}/things/9`, { body: { force: false } })).body).toEqual({
        id: 9,
        force: false,
      });
    });

    it("names every missing required parameter with rest_missing_callback_param", async () => {
      const { status, body } = await server.rest("POST", `${BASE}/things`, { body: { count: 2 } });
      expect(status).toBe(400);
      expect(body).toEqual({
        code: "rest_missing_callback_param",
        message: "Missing parameter(s): title, start",
        data: { status: 400, params: ["title", "start"] },
      });
    });

    it("answers malformed JSON with 400 rest_invalid_json", async () => {
      const { status, body } = await server.rest("POST", `${BASE}/things`, {
        body: '{"title": ',
        contentType: "application/json",
      });
      expect({ status, body }).toEqual({
        status: 400,
        body: { code: "rest_invalid_json", message: "Invalid JSON body passed.", data: { status: 400 } },
      });
    });

    it("answers a JSON body that is not an object with 400 rest_invalid_json", async () => {
      const { status, body } = await server.rest<RestErrorBody>("POST", `${BASE}/things`, {
        body: "[1,2]",
        contentType: "application/json",
      });
      expect(status).toBe(400);
      expect(body.code).toBe("rest_invalid_json");
    });

    it("answers a body over the limit with 413", async () => {
      const { status, body } = await server.rest("POST", `${BASE}/things`, {
        body: { title: "x".repeat(5000), start: "now" },
      });
      expect(status).toBe(413);
      expect(body).toEqual({
        code: "rest_payload_too_large",
        message: "The request body is too large.",
        data: { status: 413 },
      });
    });

    it("answers an unsupported media type with 415", async () => {
      const { status, body } = await server.rest<RestErrorBody>("POST", `${BASE}/things`, {
        body: "title=x",
        contentType: "text/plain",
      });
      expect(status).toBe(415);
      expect(body.code).toBe("rest_unsupported_media_type");
      expect(body.data).toEqual({ status: 415 });
    });
  });

  describe("responses", () => {
    it("sends the four total headers on lists", async () => {
      const { headers } = await server.rest("GET", `${BASE}/things`);
      expect({
        wp: headers.get("x-wp-total"),
        wpPages: headers.get("x-wp-totalpages"),
        tec: headers.get("x-tec-total"),
        tecPages: headers.get("x-tec-totalpages"),
      }).toEqual({ wp: "12", wpPages: "2", tec: "12", tecPages: "2" });
    });

    it("writes domain errors in the WordPress envelope", async () => {
      const { status, body } = await server.rest("GET", `${BASE}/things/404`);
      expect({ status, body }).toEqual({
        status: 404,
        body: { code: "rest-event-not-found", message: "Event with ID 404 does not exist.", data: { status: 404 } },
      });
    });

    it("answers an unexpected failure with an opaque 500 and no stack trace", async () => {
      const { status, body, text } = await server.rest("GET", `${BASE}/crash`);
      expect({ status, body }).toEqual({
        status: 500,
        body: { code: "rest_internal_error", message: "Internal server error.", data: { status: 500 } },
      });
      expect(text).not.toContain("secret");
      expect(text).not.toContain("stack");
    });
  });

  describe("tRPC transport", () => {
    it("serves the same procedures and carries the domain code in error.data", async () => {
      const client = fixtureClient(server.origin);
      expect(await client.things.get.query({ id: 3 })).toEqual({ id: 3 });
      const error = await fixtureRejection(client.things.get.query({ id: 404 }));
      expect(error.data?.domain).toEqual({
        code: "rest-event-not-found",
        message: "Event with ID 404 does not exist.",
        status: 404,
      });
      expect(error.data?.httpStatus).toBe(404);
      expect(error.data).not.toHaveProperty("stack");
    });

    it("reports invalid input with the same domain code as REST", async () => {
      const client = fixtureClient(server.origin);
      // @ts-expect-error: the input lacks the required `start` on purpose.
      const error = await fixtureRejection(client.things.create.mutate({ title: "" }));
      expect(error.data?.domain.code).toBe("rest_missing_callback_param");
      expect(error.data?.domain.params).toEqual(["start"]);
    });
  });
});

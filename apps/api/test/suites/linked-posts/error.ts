import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { invalidParams, NO_ROUTE, restError, rpcError } from "../../support/errors.ts";
import type { RestErrorBody } from "../../support/rest-routes.ts";
import { useTestServer } from "../../support/server.ts";
import { API, ITEM_METHODS, type LinkedPostKind, linkedPostApi, nameOf } from "./kinds.ts";

/** What venues and organizers both answer to client mistakes: 4xx with the reference's codes, nothing written. */
export function linkedPostErrorSuite(kind: LinkedPostKind) {
  const name = kind.singular;

  describe.each(PROVIDERS)(`${kind.plural}: client mistakes (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const { route } = api;
    const admin = () => ({ as: server.users.administrator });
    let existing = { id: 0, slug: "" };

    beforeAll(async () => {
      existing = await api.create({ [name]: "Existing" });
    });

    it("requires the name on create", async () => {
      const { status, body } = await server.fail(route.create, 400, { ...admin(), body: { description: "x" } });
      expect(status).toBe(400);
      expect(body).toEqual(
        restError(400, "rest_missing_callback_param", `Missing parameter(s): ${name}`, { params: [name] }),
      );
    });

    it("rejects invalid field values with rest_invalid_param naming each", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ [name]: "" }, name],
        [{ [name]: "   " }, name],
        [{ [name]: "X", status: "kinda_thinking_about_it" }, "status"],
        [{ [name]: "X", website: "not a url" }, "website"],
        [{ [name]: "X", website: "ftp://example.org" }, "website"],
        [{ [name]: "X", author: "foo" }, "author"],
        [{ [name]: "X", author: 99_999 }, "author"],
        [{ [name]: "X", date: "foo" }, "date"],
        [{ [name]: "X", date_utc: "not a date at all" }, "date_utc"],
        [{ [name]: "X", image: "foo bar" }, "image"],
        [{ [name]: "X", image: 99_999 }, "image"],
        [{ [name]: "X", slug: "" }, "slug"],
        [{ [name]: "X", translation_of: 99_999 }, "translation_of"],
        [{ [name]: "X", ml_language: "xx" }, "ml_language"],
      ];
      for (const [body, param] of cases) {
        const response = await server.fail(route.create, 400, { ...admin(), body });
        expect({
          body,
          status: response.status,
          code: response.body.code,
          params: Object.keys(response.body.data.params ?? {}),
        }).toEqual({
          body,
          status: 400,
          code: "rest_invalid_param",
          params: [param],
        });
      }
      expect(await api.names()).toEqual(["Existing"]);
    });

    it("writes nothing when a write fails late (the image record is rolled back too)", async () => {
      const images = await server.db.image.count();
      const response = await server.fail(route.create, 400, {
        ...admin(),
        body: { [name]: "Rolled back", image: "https://example.org/new.png", translation_of: 99_999 },
      });
      expect(response.status).toBe(400);
      expect(await server.db.image.count()).toBe(images);
      expect(await api.names()).toEqual(["Existing"]);
    });

    it("refuses to join a translation group that already has the language", async () => {
      const response = await server.fail(route.create, 400, {
        ...admin(),
        body: { [name]: "Same language", translation_of: existing.id },
      });
      expect(response.body).toEqual(invalidParams({ translation_of: `That ${name} already has a en translation.` }));
    });

    it("answers an unknown id with 400, a non-numeric one with 404 and an unknown slug with 400", async () => {
      for (const method of ITEM_METHODS) {
        const unknown = await server.fail(route.item(method), 400, {
          params: { id: 99_999 },
          ...admin(),
          body: method === "GET" || method === "DELETE" ? undefined : {},
        });
        expect(unknown.status).toBe(400);
        expect(unknown.body).toEqual(invalidParams({ id: `No ${name} has the id 99999.` }));
        const slug = await server.fail(route.bySlug(method), 400, { params: { slug: "no-such-slug" }, ...admin() });
        expect(slug.body).toEqual(invalidParams({ slug: `No ${name} has this slug.` }));
      }
      expect((await server.fail(route.item("GET"), 404, { params: { id: "foo" } })).body).toEqual(NO_ROUTE);
      await server.fail(route.item("GET"), 404, { params: { id: "0x10" } });
      const noRoute = await server.rest<RestErrorBody>("PUT", `${API}/${kind.plural}`, admin());
      expect(noRoute.body).toEqual(NO_ROUTE);
    });

    it("rejects an empty name on update and keeps the record", async () => {
      const response = await server.fail(route.item("PATCH"), 400, {
        params: { id: existing.id },
        ...admin(),
        body: { [name]: "" },
      });
      expect(response.status).toBe(400);
      expect(response.body.data.params).toHaveProperty(name);
      const kept = await server.call(route.item("GET"), { params: { id: existing.id } });
      expect(nameOf(kept.body)).toBe("Existing");
    });

    it("rejects invalid list parameters", async () => {
      const cases: Array<[Record<string, string | number>, string]> = [
        [{ page: 0 }, "page"],
        [{ page: "foo" }, "page"],
        [{ per_page: -1 }, "per_page"],
        [{ search: "" }, "search"],
        [{ event: "foo" }, "event"],
        [{ event: 99_999 }, "event"],
        [{ has_events: "maybe" }, "has_events"],
        [{ only_with_upcoming: "yes please" }, "only_with_upcoming"],
        [{ status: "bogus" }, "status"],
        [{ status: "draft" }, "status"],
      ];
      for (const [query, param] of cases) {
        const response = await server.fail(route.list, 400, { query });
        expect({ query, status: response.status, params: Object.keys(response.body.data?.params ?? {}) }).toEqual({
          query,
          status: 400,
          params: [param],
        });
      }
    });

    it("answers a page past the end with 404", async () => {
      const response = await server.fail(route.list, 404, { query: { page: 2 } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(
        restError(404, `${name}-archive-page-not-found`, `The requested ${name} archive page does not exist`),
      );
    });

    it("reports the same errors over tRPC", async () => {
      const rpc = kind.trpc(server.client(server.users.administrator));
      expect(await rpcError(rpc.get.query({ id: 99_999 }))).toEqual({
        status: 400,
        domain: {
          code: "rest_invalid_param",
          message: "Invalid parameter(s): id",
          status: 400,
          params: { id: `No ${name} has the id 99999.` },
        },
      });
      expect((await rpcError(rpc.create.mutate({ description: "nameless" }))).domain).toMatchObject({
        code: "rest_missing_callback_param",
        params: [name],
      });
      expect((await rpcError(rpc.list.query({ page: 5 }))).domain).toMatchObject({
        code: `${name}-archive-page-not-found`,
        status: 404,
      });
    });
  });
}

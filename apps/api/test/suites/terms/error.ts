import { create, PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { invalidParams, NO_ROUTE, rpcError } from "../../support/errors.ts";
import { first } from "../../support/narrow.ts";
import type { RestErrorBody } from "../../support/rest-routes.ts";
import { useTestServer } from "../../support/server.ts";
import { createEvent, type TermKind, type TermLike, termApi } from "./kinds.ts";

const TERM_EXISTS = "A term with the name provided already exists in this taxonomy.";

/** What categories and tags both answer to client mistakes: 4xx with the reference's codes, nothing written. */
export function termErrorSuite(kind: TermKind) {
  describe.each(PROVIDERS)(`${kind.key}: client mistakes (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = termApi(server, kind);
    const { route } = api;
    // Filled in beforeAll.
    const term = {} as Record<"music" | "art", TermLike>;
    let otherKindId = 0;
    let eventId = 0;

    beforeAll(async () => {
      term.music = await api.create({ name: "Music" });
      term.art = await api.create({ name: "Art", slug: "art" });
      // Each kind numbers its own ids, so the other kind's term gets an id this kind does not have.
      const elsewhere = { id: 90_000, name: "Elsewhere" };
      otherKindId = (
        kind.hierarchical ? await create.tag(server.db, elsewhere) : await create.category(server.db, elsewhere)
      ).id;
      eventId = await createEvent(server.db, { title: "An event" });
    });

    const editor = () => ({ as: server.users.editor });

    describe("create", () => {
      it("requires a name", async () => {
        const { status, body } = await server.fail(route.create, 400, {
          ...editor(),
          body: { description: "nameless" },
        });
        expect(status).toBe(400);
        expect(body).toEqual({
          code: "rest_missing_callback_param",
          message: "Missing parameter(s): name",
          data: { status: 400, params: ["name"] },
        });
      });

      it("rejects empty name, description and slug", async () => {
        const { status, body } = await server.fail(route.create, 400, {
          ...editor(),
          body: { name: " ", description: "", slug: "" },
        });
        expect(status).toBe(400);
        expect(body).toEqual(
          invalidParams({
            name: "Must not be empty.",
            description: "Must not be empty.",
            slug: "Must not be empty.",
          }),
        );
      });

      it("rejects a duplicate name in the language, whatever its case or accents, with term_exists", async () => {
        for (const name of ["Music", "MUSIC", " music "]) {
          const { status, body } = await server.fail(route.create, 400, {
            ...editor(),
            body: { name, slug: "another" },
          });
          expect({ name, status, body }).toEqual({
            name,
            status: 400,
            body: { code: "term_exists", message: TERM_EXISTS, data: { status: 400, term_id: term.music.id } },
          });
        }
        const accents = await api.create({ name: "Theatre" });
        const { body } = await server.fail(route.create, 400, { ...editor(), body: { name: "Théâtre" } });
        expect(body.data.term_id).toBe(accents.id);
      });

      it("names a translation_of that is unknown, of the other kind, or whose group has the language", async () => {
        for (const translationOf of [999_999, otherKindId]) {
          const { status, body } = await server.fail(route.create, 400, {
            ...editor(),
            body: { name: "Lost", translation_of: translationOf },
          });
          expect(status).toBe(400);
          expect(body).toEqual(invalidParams({ translation_of: `No ${kind.noun} has this id.` }));
        }
        const sameLanguage = await server.fail(route.create, 400, {
          ...editor(),
          body: { name: "Twin", translation_of: term.music.id },
        });
        expect(sameLanguage.body).toEqual(
          invalidParams({ translation_of: `Its translation group already has a en ${kind.noun}.` }),
        );
        await api.create({ name: "Musik", translation_of: term.music.id, ml_language: "de" });
        const taken = await server.fail(route.create, 400, {
          ...editor(),
          body: { name: "Tonkunst", translation_of: term.music.id, ml_language: "de" },
        });
        expect(taken.body).toEqual(
          invalidParams({ translation_of: `Its translation group already has a de ${kind.noun}.` }),
        );
      });

      it("writes nothing when a create fails", async () => {
        const before = await kind.rows(server.db);
        await server.fail(route.create, 400, { ...editor(), body: { name: "Music" } });
        await server.fail(route.create, 400, { ...editor(), body: { name: "Orphan", translation_of: 999_999 } });
        expect(await kind.rows(server.db)).toEqual(before);
      });

      it("answers concurrent creates of one name with one 201 and term_exists for the others", async () => {
        const responses = await Promise.all(
          Array.from({ length: 4 }, () =>
            server.rest<TermLike | RestErrorBody>("POST", kind.path, { ...editor(), body: { name: "Race" } }),
          ),
        );
        expect(responses.map((response) => response.status).sort()).toEqual([201, 400, 400, 400]);
        const bodies = responses.map((response) => response.body);
        const created = first(bodies.flatMap((body) => ("code" in body ? [] : [body])));
        const refused = bodies.flatMap((body) => ("code" in body ? [body] : []));
        const exists = { code: "term_exists", message: TERM_EXISTS, data: { status: 400, term_id: created.id } };
        expect(refused).toEqual([exists, exists, exists]);
      });

      it("gives concurrent creates that want one slug distinct slugs", async () => {
        const responses = await Promise.all(
          ["Relay!", "Relay?", "Relay."].map((name) =>
            server.call(route.create, { ...editor(), body: { name }, status: 201 }),
          ),
        );
        expect(responses.map((response) => response.status)).toEqual([201, 201, 201]);
        expect(responses.map((response) => response.body.slug).sort()).toEqual(["relay", "relay-2", "relay-3"]);
      });

      it("answers malformed JSON with rest_invalid_json", async () => {
        const { status, body } = await server.fail(route.create, 400, {
          ...editor(),
          body: "{not json",
          contentType: "application/json",
        });
        expect(status).toBe(400);
        expect(body.code).toBe("rest_invalid_json");
      });
    });

    describe("read", () => {
      it("answers an unknown id, or an id of the other kind, with 400 naming id", async () => {
        for (const id of [999_999, otherKindId]) {
          const { status, body } = await server.fail(route.item("GET"), 400, { params: { id } });
          expect({ id, status, body }).toEqual({
            id,
            status: 400,
            body: invalidParams({ id: `No ${kind.noun} has this id.` }),
          });
        }
      });

      it("answers a non-decimal id with 404 rest_no_route", async () => {
        for (const id of ["foo", "1e1", "0x10"]) {
          expect((await server.fail(route.item("GET"), 404, { params: { id } })).body).toEqual(NO_ROUTE);
        }
      });

      it("answers 400 over tRPC for an unknown id", async () => {
        const failure = await rpcError(kind.rpc(server.client()).get({ id: 999_999 }));
        expect(failure).toEqual({
          status: 400,
          domain: {
            code: "rest_invalid_param",
            message: "Invalid parameter(s): id",
            status: 400,
            params: { id: `No ${kind.noun} has this id.` },
          },
        });
      });
    });

    describe("list", () => {
      it("rejects ids of include and exclude that do not exist in this taxonomy", async () => {
        const { status, body } = await server.fail(route.list, 400, {
          query: { include: `${term.music.id},999998`, exclude: otherKindId },
        });
        expect(status).toBe(400);
        expect(body).toEqual(
          invalidParams({ include: "Unknown id(s): 999998.", exclude: `Unknown id(s): ${otherKindId}.` }),
        );
      });

      it("rejects an event filter that is not an existing event, naming the parameter used", async () => {
        const unknownPost = await server.fail(route.list, 400, { query: { post: 999_999 } });
        expect(unknownPost.body).toEqual(invalidParams({ post: "No event has this id." }));
        const unknownEvent = await server.fail(route.list, 400, { query: { post: eventId, event: 999_999 } });
        expect(unknownEvent.body).toEqual(invalidParams({ event: "No event has this id." }));
        const malformed = await server.fail(route.list, 400, { query: { event: "foo" } });
        expect(malformed.status).toBe(400);
        expect(Object.keys(malformed.body.data.params ?? {})).toEqual(["event"]);
      });

      it("rejects values outside their lists and empty values", async () => {
        const cases: Array<[Record<string, string>, string]> = [
          [{ order: "sideways" }, "order"],
          [{ orderby: "date" }, "orderby"],
          [{ orderby: "" }, "orderby"],
          [{ search: "" }, "search"],
          [{ slug: "" }, "slug"],
          [{ include: "" }, "include"],
          [{ page: "0" }, "page"],
          [{ per_page: "abc" }, "per_page"],
          [{ hide_empty: "maybe" }, "hide_empty"],
          [{ ml_language: "xx" }, "ml_language"],
        ];
        for (const [query, param] of cases) {
          const { status, body } = await server.fail(route.list, 400, { query });
          expect({ query, status, code: body.code, params: Object.keys(body.data.params ?? {}) }).toEqual({
            query,
            status: 400,
            code: "rest_invalid_param",
            params: [param],
          });
        }
      });

      it("answers the same mistakes over tRPC with BAD_REQUEST", async () => {
        const failure = await rpcError(kind.rpc(server.client()).list({ include: [999_999] }));
        expect(failure.status).toBe(400);
        expect(failure.domain?.params).toEqual({ include: "Unknown id(s): 999999." });
      });
    });

    describe("update", () => {
      it("rejects an unknown id with 400 and a non-decimal one with 404", async () => {
        const update = (id: number | string, status: number) =>
          server.fail(route.item("POST"), status, { params: { id }, ...editor(), body: { name: "x" } });
        expect((await update(999_999, 400)).body).toEqual(invalidParams({ id: `No ${kind.noun} has this id.` }));
        expect((await update("foo", 404)).body).toEqual(NO_ROUTE);
      });

      it("rejects empty values", async () => {
        const { status, body } = await server.fail(route.item("PATCH"), 400, {
          params: { id: term.art.id },
          ...editor(),
          body: { name: "", description: "" },
        });
        expect(status).toBe(400);
        expect(body).toEqual(invalidParams({ name: "Must not be empty.", description: "Must not be empty." }));
      });

      it("rejects a rename onto another term's name with term_exists", async () => {
        const { status, body } = await server.fail(route.item("PUT"), 400, {
          params: { id: term.art.id },
          ...editor(),
          body: { name: "music" },
        });
        expect(status).toBe(400);
        expect(body).toEqual({
          code: "term_exists",
          message: TERM_EXISTS,
          data: { status: 400, term_id: term.music.id },
        });
      });

      it("rejects a slug another term of the language has with duplicate_term_slug", async () => {
        const { status, body } = await server.fail(route.item("POST"), 400, {
          params: { id: term.music.id },
          ...editor(),
          body: { slug: "Art" },
        });
        expect(status).toBe(400);
        expect(body).toEqual({
          code: "duplicate_term_slug",
          message: "The slug “art” is already in use by another term.",
          data: { status: 400 },
        });
        expect((await api.get(term.music.id)).body.slug).toBe("music");
      });

      it("rejects a translation_of that is the term itself", async () => {
        const { body } = await server.fail(route.item("POST"), 400, {
          params: { id: term.art.id },
          ...editor(),
          body: { translation_of: term.art.id },
        });
        expect(body).toEqual(invalidParams({ translation_of: "A term cannot be a translation of itself." }));
      });
    });

    describe("delete", () => {
      it("answers a second delete with 400", async () => {
        const doomed = await api.create({ name: "Twice" });
        expect((await api.remove(doomed.id, editor())).status).toBe(200);
        const again = await server.fail(route.item("DELETE"), 400, { params: { id: doomed.id }, ...editor() });
        expect(again.status).toBe(400);
        expect(again.body).toEqual(invalidParams({ id: `No ${kind.noun} has this id.` }));
      });

      it("answers concurrent deletes of one term with one 200 and 400 for the others", async () => {
        const doomed = await api.create({ name: "Contested" });
        const responses = await Promise.all(
          Array.from({ length: 3 }, () => server.rest("DELETE", `${kind.path}/${doomed.id}`, editor())),
        );
        expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400]);
      });

      it("answers an unsupported method on the collection with 404", async () => {
        expect((await server.rest<RestErrorBody>("DELETE", kind.path, editor())).body).toEqual(NO_ROUTE);
        expect((await server.rest<RestErrorBody>("PUT", kind.path, editor())).body).toEqual(NO_ROUTE);
      });
    });
  });
}

import { create, PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../../support/server.ts";
import { createEvent, invalidParamsBody, type TermKind, type TermLike, termApi } from "./kinds.ts";

const NO_ROUTE = {
  code: "rest_no_route",
  message: "No route was found matching the URL and request method.",
  data: { status: 404 },
};

const TERM_EXISTS = "A term with the name provided already exists in this taxonomy.";

/** The tRPC error of a failed call, as a client sees it. */
async function rpcFailure(call: Promise<unknown>) {
  const error = (await call.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (caught: unknown) => caught,
  )) as { data: { httpStatus: number; domain: Record<string, unknown> } };
  return { status: error.data.httpStatus, domain: error.data.domain };
}

/** What categories and tags both answer to client mistakes: 4xx with the reference's codes, nothing written. */
export function termErrorSuite(kind: TermKind) {
  describe.each(PROVIDERS)(`${kind.key}: client mistakes (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = termApi(server, kind);
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
        const { status, body } = await api.post({ description: "nameless" }, editor());
        expect(status).toBe(400);
        expect(body).toEqual({
          code: "rest_missing_callback_param",
          message: "Missing parameter(s): name",
          data: { status: 400, params: ["name"] },
        });
      });

      it("rejects empty name, description and slug", async () => {
        const { status, body } = await api.post({ name: " ", description: "", slug: "" }, editor());
        expect(status).toBe(400);
        expect(body).toEqual(
          invalidParamsBody({
            name: "Must not be empty.",
            description: "Must not be empty.",
            slug: "Must not be empty.",
          }),
        );
      });

      it("rejects a duplicate name in the language, whatever its case or accents, with term_exists", async () => {
        for (const name of ["Music", "MUSIC", " music "]) {
          const { status, body } = await api.post({ name, slug: "another" }, editor());
          expect({ name, status, body }).toEqual({
            name,
            status: 400,
            body: { code: "term_exists", message: TERM_EXISTS, data: { status: 400, term_id: term.music.id } },
          });
        }
        const accents = await api.create({ name: "Theatre" });
        const { body } = await api.post({ name: "Théâtre" }, editor());
        expect(body.data.term_id).toBe(accents.id);
      });

      it("names a translation_of that is unknown, of the other kind, or whose group has the language", async () => {
        for (const translationOf of [999_999, otherKindId]) {
          const { status, body } = await api.post({ name: "Lost", translation_of: translationOf }, editor());
          expect(status).toBe(400);
          expect(body).toEqual(invalidParamsBody({ translation_of: `No ${kind.noun} has this id.` }));
        }
        const sameLanguage = await api.post({ name: "Twin", translation_of: term.music.id }, editor());
        expect(sameLanguage.body).toEqual(
          invalidParamsBody({ translation_of: `Its translation group already has a en ${kind.noun}.` }),
        );
        await api.create({ name: "Musik", translation_of: term.music.id, ml_language: "de" });
        const taken = await api.post({ name: "Tonkunst", translation_of: term.music.id, ml_language: "de" }, editor());
        expect(taken.body).toEqual(
          invalidParamsBody({ translation_of: `Its translation group already has a de ${kind.noun}.` }),
        );
      });

      it("writes nothing when a create fails", async () => {
        const before = await kind.rows(server.db);
        await api.post({ name: "Music" }, editor());
        await api.post({ name: "Orphan", translation_of: 999_999 }, editor());
        expect(await kind.rows(server.db)).toEqual(before);
      });

      it("answers concurrent creates of one name with one 201 and term_exists for the others", async () => {
        const responses = await Promise.all(Array.from({ length: 4 }, () => api.post({ name: "Race" }, editor())));
        expect(responses.map((response) => response.status).sort()).toEqual([201, 400, 400, 400]);
        const created = responses.find((response) => response.status === 201)?.body;
        for (const response of responses.filter((each) => each.status === 400)) {
          expect(response.body).toEqual({
            code: "term_exists",
            message: TERM_EXISTS,
            data: { status: 400, term_id: created.id },
          });
        }
      });

      it("gives concurrent creates that want one slug distinct slugs", async () => {
        const responses = await Promise.all(["Relay!", "Relay?", "Relay."].map((name) => api.post({ name }, editor())));
        expect(responses.map((response) => response.status)).toEqual([201, 201, 201]);
        expect(responses.map((response) => response.body.slug).sort()).toEqual(["relay", "relay-2", "relay-3"]);
      });

      it("answers malformed JSON with rest_invalid_json", async () => {
        const { status, body } = await server.rest("POST", kind.path, {
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
          const { status, body } = await api.get(id);
          expect({ id, status, body }).toEqual({
            id,
            status: 400,
            body: invalidParamsBody({ id: `No ${kind.noun} has this id.` }),
          });
        }
      });

      it("answers a non-decimal id with 404 rest_no_route", async () => {
        for (const id of ["foo", "1e1", "0x10"]) {
          expect((await api.get(id)).body).toEqual(NO_ROUTE);
        }
      });

      it("answers 400 over tRPC for an unknown id", async () => {
        const failure = await rpcFailure(kind.rpc(server.client()).get({ id: 999_999 }));
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
        const { status, body } = await api.list({ include: `${term.music.id},999998`, exclude: otherKindId });
        expect(status).toBe(400);
        expect(body).toEqual(
          invalidParamsBody({ include: "Unknown id(s): 999998.", exclude: `Unknown id(s): ${otherKindId}.` }),
        );
      });

      it("rejects an event filter that is not an existing event, naming the parameter used", async () => {
        expect((await api.list({ post: 999_999 })).body).toEqual(invalidParamsBody({ post: "No event has this id." }));
        expect((await api.list({ post: eventId, event: 999_999 })).body).toEqual(
          invalidParamsBody({ event: "No event has this id." }),
        );
        const malformed = await api.list({ event: "foo" });
        expect(malformed.status).toBe(400);
        expect(Object.keys(malformed.body.data.params)).toEqual(["event"]);
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
          const { status, body } = await api.list(query);
          expect({ query, status, code: body.code, params: Object.keys(body.data.params) }).toEqual({
            query,
            status: 400,
            code: "rest_invalid_param",
            params: [param],
          });
        }
      });

      it("answers the same mistakes over tRPC with BAD_REQUEST", async () => {
        const failure = await rpcFailure(kind.rpc(server.client()).list({ include: [999_999] }));
        expect(failure.status).toBe(400);
        expect(failure.domain.params).toEqual({ include: "Unknown id(s): 999999." });
      });
    });

    describe("update", () => {
      it("rejects an unknown id with 400 and a non-decimal one with 404", async () => {
        expect((await api.update(999_999, { name: "x" }, editor())).body).toEqual(
          invalidParamsBody({ id: `No ${kind.noun} has this id.` }),
        );
        expect((await api.update("foo", { name: "x" }, editor())).body).toEqual(NO_ROUTE);
      });

      it("rejects empty values", async () => {
        const { status, body } = await api.update(term.art.id, { name: "", description: "" }, editor(), "PATCH");
        expect(status).toBe(400);
        expect(body).toEqual(invalidParamsBody({ name: "Must not be empty.", description: "Must not be empty." }));
      });

      it("rejects a rename onto another term's name with term_exists", async () => {
        const { status, body } = await api.update(term.art.id, { name: "music" }, editor(), "PUT");
        expect(status).toBe(400);
        expect(body).toEqual({
          code: "term_exists",
          message: TERM_EXISTS,
          data: { status: 400, term_id: term.music.id },
        });
      });

      it("rejects a slug another term of the language has with duplicate_term_slug", async () => {
        const { status, body } = await api.update(term.music.id, { slug: "Art" }, editor());
        expect(status).toBe(400);
        expect(body).toEqual({
          code: "duplicate_term_slug",
          message: "The slug “art” is already in use by another term.",
          data: { status: 400 },
        });
        expect((await api.get(term.music.id)).body.slug).toBe("music");
      });

      it("rejects a translation_of that is the term itself", async () => {
        const { body } = await api.update(term.art.id, { translation_of: term.art.id }, editor());
        expect(body).toEqual(invalidParamsBody({ translation_of: "A term cannot be a translation of itself." }));
      });
    });

    describe("delete", () => {
      it("answers a second delete with 400", async () => {
        const doomed = await api.create({ name: "Twice" });
        expect((await api.remove(doomed.id, editor())).status).toBe(200);
        const again = await api.remove(doomed.id, editor());
        expect(again.status).toBe(400);
        expect(again.body).toEqual(invalidParamsBody({ id: `No ${kind.noun} has this id.` }));
      });

      it("answers concurrent deletes of one term with one 200 and 400 for the others", async () => {
        const doomed = await api.create({ name: "Contested" });
        const responses = await Promise.all(Array.from({ length: 3 }, () => api.remove(doomed.id, editor())));
        expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400]);
      });

      it("answers an unsupported method on the collection with 404", async () => {
        expect((await server.rest("DELETE", kind.path, editor())).body).toEqual(NO_ROUTE);
        expect((await server.rest("PUT", kind.path, editor())).body).toEqual(NO_ROUTE);
      });
    });
  });
}

import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { termHappySuite } from "../suites/terms/happy.ts";
import { CATEGORIES, createEventWith, type TermLike, termApi, termsOf } from "../suites/terms/kinds.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { useTestServer } from "../support/server.ts";

termHappySuite(CATEGORIES);

describe.each(PROVIDERS)("categories: hierarchy (%s)", (provider) => {
  const server = useTestServer(provider);
  const api = termApi(server, CATEGORIES);
  const editor = () => ({ as: server.users.editor });
  // Filled in beforeAll.
  const category = {} as Record<"music" | "jazz" | "bebop" | "film", TermLike>;

  beforeAll(async () => {
    category.music = await api.create({ name: "Music" });
    category.jazz = await api.create({ name: "Jazz", parent: category.music.id });
    category.bebop = await api.create({ name: "Bebop", parent: category.jazz.id });
    category.film = await api.create({ name: "Film" });
  });

  it("creates a child with its parent and an up link", async () => {
    expect(category.jazz).toEqual(
      api.expected({ id: category.jazz.id, name: "Jazz", slug: "jazz", parent: category.music.id }),
    );
    expect(category.jazz.urls.up).toBe(`${api.apiRoot()}/categories/${category.music.id}`);
  });

  it("lists the children of a parent", async () => {
    const { body } = await api.list({ parent: category.music.id, hide_empty: 0 });
    expect(termsOf(body).map((item) => item.name)).toEqual(["Jazz"]);
  });

  it("allows the same name under different parents, and rejects it under the same one", async () => {
    const underFilm = await api.create({ name: "Jazz", parent: category.film.id }, editor());
    expect(underFilm.slug).toBe("jazz-2");
    const twin = await server.fail("POST /categories", 400, {
      ...editor(),
      body: { name: "JAZZ", parent: category.music.id },
    });
    expect(twin.body).toEqual({
      code: "term_exists",
      message: "A term with the name provided already exists in this taxonomy.",
      data: { status: 400, term_id: category.jazz.id },
    });
    const moved = await server.fail("POST /categories/{id}", 400, {
      params: { id: underFilm.id },
      ...editor(),
      body: { parent: category.music.id },
    });
    expect(moved.body.code).toBe("term_exists");
  });

  it("moves a category to the top with parent 0, and under another parent", async () => {
    const solo = await api.create({ name: "Solo", parent: category.bebop.id });
    const top = await api.update(solo.id, { parent: 0 }, editor(), "PATCH");
    expect(top.status).toBe(200);
    expect(top.body).toEqual(api.expected({ id: solo.id, name: "Solo", slug: "solo" }));
    const under = await api.update(solo.id, { parent: category.film.id }, editor(), "PUT");
    expect(under.body.parent).toBe(category.film.id);
  });

  it("refuses to make a category its own ancestor, changing nothing", async () => {
    for (const parent of [category.music.id, category.jazz.id, category.bebop.id]) {
      const { status, body } = await server.fail("POST /categories/{id}", 400, {
        params: { id: category.music.id },
        ...editor(),
        body: { parent, name: "Renamed" },
      });
      expect({ parent, status, body }).toEqual({
        parent,
        status: 400,
        body: {
          code: "rest_invalid_param",
          message: "Invalid parameter(s): parent",
          data: { status: 400, params: { parent: "A category cannot be its own ancestor." } },
        },
      });
    }
    expect((await api.get(category.music.id)).body).toEqual(category.music);
  });

  it("rejects a parent that does not exist, is malformed or is in another language", async () => {
    const german = await api.create({ name: "Musik", ml_language: "de" });
    const cases: Array<[unknown, string]> = [
      [2389, "No category has this id."],
      ["", "parent is not of type number."],
      ["foo", "parent is not of type number."],
      [german.id, "The parent category is in another language."],
    ];
    for (const [parent, reason] of cases) {
      const { status, body } = await server.fail("POST /categories", 400, {
        ...editor(),
        body: { name: "Child", parent },
      });
      expect({ parent, status, params: body.data.params }).toEqual({ parent, status: 400, params: { parent: reason } });
    }
    const list = await server.fail("GET /categories", 400, { query: { parent: 2389 } });
    expect(list.body.data.params).toEqual({ parent: "No category has this id." });
    await server.fail("GET /categories", 400, { query: { parent: "" } });
  });

  it("moves the children of a deleted category up to its parent", async () => {
    const parent = await api.create({ name: "Stage" });
    const middle = await api.create({ name: "Opera", parent: parent.id });
    const leaf = await api.create({ name: "Aria", parent: middle.id });
    const sibling = await api.create({ name: "Operetta", parent: middle.id });
    await createEventWith(server.db, CATEGORIES, [middle.id, leaf.id]);
    const removed = await api.remove(middle.id, editor());
    expect(removed.body).toEqual({ ...middle, count: 1 });
    expect((await api.get(leaf.id)).body).toEqual({
      ...leaf,
      parent: parent.id,
      count: 1,
      urls: { ...leaf.urls, up: `${api.apiRoot()}/categories/${parent.id}` },
    });
    expect((await api.get(sibling.id)).body.parent).toBe(parent.id);
    await api.remove(parent.id, editor());
    expect((await api.get(leaf.id)).body.parent).toBe(0);
  });

  it("never leaves a child under a parent deleted at the same time", async () => {
    for (let round = 0; round < 3; round++) {
      const parent = await api.create({ name: `Short-lived ${round}` });
      const [child, removed] = await Promise.all([
        server.rest<TermLike | RestErrorBody>("POST", CATEGORIES.path, {
          ...editor(),
          body: { name: `Child ${round}`, parent: parent.id },
        }),
        api.remove(parent.id, editor()),
      ]);
      expect(removed.status).toBe(200);
      const { status, body } = child;
      if ("code" in body) {
        expect({ status, params: body.data.params }).toEqual({
          status: 400,
          params: { parent: "No category has this id." },
        });
      } else {
        expect({ status, parent: (await api.get(body.id)).body.parent }).toEqual({ status: 201, parent: 0 });
      }
    }
  });

  it("types parent as a number over tRPC", async () => {
    const jazz = await server.client().categories.get.query({ id: category.jazz.id });
    expectTypeOf(jazz.parent).toEqualTypeOf<number>();
    expectTypeOf(jazz.taxonomy).toEqualTypeOf<"tribe_events_cat">();
    expect(jazz.parent).toBe(category.music.id);
  });
});

import { categoryRow, PROVIDERS, tagRow } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../../support/server.ts";
import {
  API,
  createEvent,
  createEventWith,
  type TermKind,
  type TermLike,
  type TermList,
  termApi,
  termsOf,
} from "./kinds.ts";

const TOTAL_HEADERS = ["x-wp-total", "x-wp-totalpages", "x-tec-total", "x-tec-totalpages"];

function totalHeaders(headers: Headers) {
  return Object.fromEntries(TOTAL_HEADERS.map((name) => [name, headers.get(name)]));
}

const ids = (list: TermList) => termsOf(list).map((term) => term.id);
const names = (list: TermList) => termsOf(list).map((term) => term.name);

/** What categories and tags both do when used as intended, over REST and tRPC, on both databases. */
export function termHappySuite(kind: TermKind) {
  describe.each(PROVIDERS)(`${kind.key}: intended use (%s)`, (provider) => {
    describe("create, read, update, delete", () => {
      const server = useTestServer(provider);
      const api = termApi(server, kind);

      it("creates a term with 201 and answers it whole, with the slug made from the name", async () => {
        const { status, body, text } = await server.call(api.route.create, {
          as: server.users.editor,
          body: { name: "Open Air" },
          status: 201,
        });
        expect(status).toBe(201);
        expect(body).toEqual(api.expected({ id: body.id, name: "Open Air", slug: "open-air" }));
        expect(Object.keys(JSON.parse(text))).toEqual(Object.keys(api.expected({ id: 0, name: "", slug: "" })));
        const [row] = (await kind.rows(server.db)).filter((term) => term.id === body.id);
        expect(row).toMatchObject({ name: "Open Air", nameKey: "open air", slug: "open-air", language: "en" });
      });

      it("keeps the name, description and an explicit slug as sent", async () => {
        const description = "<p>Loud &amp; “proud”</p>\n";
        const term = await api.create({ name: "Rock’n’Roll", description, slug: "Rock N Roll" });
        expect(term).toEqual(api.expected({ id: term.id, name: "Rock’n’Roll", slug: "rock-n-roll", description }));
      });

      it("gives a new term a free slug when its slug is taken in the language", async () => {
        const first = await api.create({ name: "Film" });
        const second = await api.create({ name: "Cinema", slug: "film" });
        const third = await api.create({ name: "Movies", slug: "film" });
        expect([first.slug, second.slug, third.slug]).toEqual(["film", "film-2", "film-3"]);
      });

      it("reads a term by id over REST and tRPC alike", async () => {
        const created = await api.create({ name: "Readable", description: "text" });
        const { status, body } = await api.get(created.id);
        expect(status).toBe(200);
        expect(body).toEqual(created);
        expect(await kind.rpc(server.client()).get({ id: created.id })).toEqual(created);
      });

      it("updates only the fields sent, on POST, PUT and PATCH", async () => {
        const term = await api.create({ name: "Before", description: "kept", slug: "before" });
        const renamed = await api.update(term.id, { name: "After" }, { as: server.users.editor });
        expect(renamed.status).toBe(200);
        expect(renamed.body).toEqual({ ...term, name: "After" });
        const put = await api.update(term.id, { description: "changed" }, { as: server.users.editor }, "PUT");
        expect(put.body).toEqual({ ...term, name: "After", description: "changed" });
        const patch = await api.update(term.id, { slug: "After Slug" }, { as: server.users.editor }, "PATCH");
        expect(patch.body).toEqual({
          ...term,
          name: "After",
          description: "changed",
          slug: "after-slug",
          url: `${server.origin}/${kind.noun}/after-slug/`,
        });
        expect((await api.get(term.id)).body).toEqual(patch.body);
      });

      it("accepts a form body and fields in the query string", async () => {
        const form = await server.call(api.route.create, {
          as: server.users.editor,
          form: { name: "Form Term", description: "from a form" },
          status: 201,
        });
        expect(form.status).toBe(201);
        expect(form.body).toMatchObject({ name: "Form Term", description: "from a form" });
        const query = await server.call(api.route.item("POST"), {
          params: { id: form.body.id },
          as: server.users.editor,
          query: { description: "from the query" },
        });
        expect(query.body.description).toBe("from the query");
      });

      it("keeps the name of a renamed term and its own slug when the name is unchanged in another case", async () => {
        const term = await api.create({ name: "Case" });
        const { status, body } = await api.update(term.id, { name: "CASE" }, { as: server.users.editor });
        expect(status).toBe(200);
        expect(body).toEqual({ ...term, name: "CASE" });
      });

      it("deletes a term permanently, answering it as it was, and unlinks its events", async () => {
        const term = await api.create({ name: "Doomed", description: "soon gone" });
        const eventId = await createEventWith(server.db, kind, [term.id]);
        const { status, body } = await api.remove(term.id, { as: server.users.editor });
        expect(status).toBe(200);
        expect(body).toEqual({ ...term, count: 1 });
        expect((await kind.rows(server.db)).filter((row) => row.id === term.id)).toEqual([]);
        expect(await kind.linkCount(server.db, term.id)).toBe(0);
        expect(await server.db.event.count({ where: { id: eventId } })).toBe(1);
        await server.fail(api.route.item("GET"), 400, { params: { id: term.id } });
      });

      it("creates, updates and deletes over tRPC with the same results as REST", async () => {
        const rpc = kind.rpc(server.client(server.users.editor));
        const created = await rpc.create({ name: "Typed", description: "via tRPC" });
        expect(created).toEqual(
          api.expected({ id: created.id, name: "Typed", slug: "typed", description: "via tRPC" }),
        );
        const updated = await rpc.update({ id: created.id, name: "Typed Again" });
        expect(updated).toEqual({ ...created, name: "Typed Again" });
        expect(await rpc.delete({ id: created.id })).toEqual(updated);
        await server.fail(api.route.item("GET"), 400, { params: { id: created.id } });
      });
    });

    describe("counts and hide_empty", () => {
      const server = useTestServer(provider);
      const api = termApi(server, kind);
      // Filled in beforeAll.
      const term = {} as Record<"Busy" | "Drafty" | "Empty" | "Foreign", TermLike>;

      beforeAll(async () => {
        for (const name of ["Busy", "Drafty", "Empty", "Foreign"] as const) term[name] = await api.create({ name });
        const db = server.db;
        await createEventWith(db, kind, [term.Busy.id]);
        await createEventWith(db, kind, [term.Busy.id, term.Drafty.id]);
        await createEventWith(db, kind, [term.Drafty.id], { status: "draft" });
        await createEventWith(db, kind, [term.Busy.id], { status: "trash" });
        await createEventWith(db, kind, [term.Foreign.id], { language: "de" });
      });

      it("counts the published events of the term in its language", async () => {
        const { body } = await api.list({ hide_empty: "false" });
        expect(termsOf(body).map((item) => [item.name, item.count])).toEqual([
          ["Busy", 2],
          ["Drafty", 1],
          ["Empty", 0],
          ["Foreign", 0],
        ]);
      });

      it("hides terms without a published event in the language by default", async () => {
        const { status, body, headers } = await api.list();
        expect(status).toBe(200);
        expect(names(body)).toEqual(["Busy", "Drafty"]);
        expect(body.total).toBe(2);
        expect(totalHeaders(headers)).toEqual({
          "x-wp-total": "2",
          "x-wp-totalpages": "1",
          "x-tec-total": "2",
          "x-tec-totalpages": "1",
        });
      });

      it("gives the count on a single term too", async () => {
        expect((await api.get(term.Busy.id)).body.count).toBe(2);
        expect((await kind.rpc(server.client()).get({ id: term.Foreign.id })).count).toBe(0);
      });
    });

    describe("list envelope, paging and ordering", () => {
      const server = useTestServer(provider);
      const api = termApi(server, kind);
      // Filled in beforeAll.
      const term = {} as Record<"A" | "b" | "C" | "d" | "É", TermLike>;

      beforeAll(async () => {
        for (const [name, slug] of [
          ["b", "zulu"],
          ["A", "yankee"],
          ["C", "xray"],
          ["d", "whiskey"],
          ["É", "victor"],
        ] as const) {
          term[name] = await api.create({ name, slug });
        }
        const db = server.db;
        const allIds = Object.values(term).map((item) => item.id);
        await createEventWith(db, kind, allIds);
        await createEventWith(db, kind, [term.C.id, term.d.id]);
        await createEventWith(db, kind, [term.d.id]);
      });

      it("answers the whole envelope in the reference's key order", async () => {
        const { body, text } = await api.list({ per_page: 2 });
        const root = api.apiRoot();
        expect(Object.keys(JSON.parse(text))).toEqual([kind.key, "rest_url", "total", "total_pages", "next_rest_url"]);
        expect(body).toEqual({
          [kind.key]: [
            api.expected({ id: term.A.id, name: "A", slug: "yankee", count: 1 }),
            api.expected({ id: term.b.id, name: "b", slug: "zulu", count: 1 }),
          ],
          rest_url: `${root}/${kind.key}/`,
          total: 5,
          total_pages: 3,
          next_rest_url: `${root}/${kind.key}/?page=2&per_page=2`,
        });
      });

      it("links the previous and next pages, the previous of page 2 without a page", async () => {
        const root = `${api.apiRoot()}/${kind.key}/`;
        const second = await api.list({ per_page: 2, page: 2 });
        expect(names(second.body)).toEqual(["C", "d"]);
        expect(second.body.next_rest_url).toBe(`${root}?page=3&per_page=2`);
        expect(second.body.previous_rest_url).toBe(`${root}?per_page=2`);
        const third = await api.list({ per_page: 2, page: 3 });
        expect(names(third.body)).toEqual(["É"]);
        expect(third.body).not.toHaveProperty("next_rest_url");
        expect(third.body.previous_rest_url).toBe(`${root}?page=2&per_page=2`);
        expect(totalHeaders(third.headers)).toEqual({
          "x-wp-total": "5",
          "x-wp-totalpages": "3",
          "x-tec-total": "5",
          "x-tec-totalpages": "3",
        });
      });

      it("answers a page past the end with 200 and an empty list", async () => {
        const { status, body } = await api.list({ per_page: 2, page: 9 });
        expect(status).toBe(200);
        expect(body).toEqual({
          [kind.key]: [],
          rest_url: `${api.apiRoot()}/${kind.key}/`,
          total: 5,
          total_pages: 3,
          previous_rest_url: `${api.apiRoot()}/${kind.key}/?page=8&per_page=2`,
        });
      });

      it("shows 9 per page by default and clamps per_page to 50", async () => {
        const { body } = await api.list({ per_page: 500 });
        expect(body.total_pages).toBe(1);
        expect(termsOf(body)).toHaveLength(5);
        const extra = Array.from({ length: 51 }, (_, index) => ({
          name: `Bulk ${String(index).padStart(2, "0")}`,
          slug: `bulk-${index}`,
          language: "fr",
        }));
        if (kind.hierarchical) await server.db.category.createMany({ data: extra.map((row) => categoryRow(row)) });
        else await server.db.tag.createMany({ data: extra.map((row) => tagRow(row)) });
        const clamped = await api.list({ per_page: 500, hide_empty: 0, ml_language: "fr" });
        expect(termsOf(clamped.body)).toHaveLength(50);
        expect(clamped.body.total_pages).toBe(2);
        const byDefault = await api.list({ hide_empty: 0, ml_language: "fr" });
        expect(termsOf(byDefault.body)).toHaveLength(9);
        expect(byDefault.body.total_pages).toBe(6);
      });

      it("orders by name case- and accent-insensitively by default, and reverses with order=desc", async () => {
        expect(names((await api.list()).body)).toEqual(["A", "b", "C", "d", "É"]);
        expect(names((await api.list({ order: "desc" })).body)).toEqual(["É", "d", "C", "b", "A"]);
        expect(names((await api.list({ orderby: "name", order: "DESC".toLowerCase() })).body)).toEqual([
          "É",
          "d",
          "C",
          "b",
          "A",
        ]);
      });

      it("orders by id, slug and count", async () => {
        const byId = Object.values(term).map((item) => item.id);
        expect(ids((await api.list({ orderby: "id" })).body)).toEqual(byId);
        expect(ids((await api.list({ orderby: "id", order: "desc" })).body)).toEqual([...byId].reverse());
        expect(names((await api.list({ orderby: "slug" })).body)).toEqual(["É", "d", "C", "A", "b"]);
        expect(names((await api.list({ orderby: "count", order: "desc" })).body)).toEqual(["d", "C", "É", "b", "A"]);
        const pageOfCounts = await api.list({ orderby: "count", per_page: 2, page: 2 });
        expect(names(pageOfCounts.body)).toEqual(["É", "C"]);
        expect(pageOfCounts.body.total).toBe(5);
      });

      it("keeps only the included ids, in their order with orderby=include, and leaves out excluded ones", async () => {
        const wanted = [term.d.id, term.A.id, term.C.id];
        expect(names((await api.list({ include: wanted.join(",") })).body)).toEqual(["A", "C", "d"]);
        expect(names((await api.list({ include: wanted, orderby: "include" })).body)).toEqual(["d", "A", "C"]);
        expect(names((await api.list({ include: wanted, orderby: "include", order: "desc" })).body)).toEqual([
          "C",
          "A",
          "d",
        ]);
        const excluded = await api.list({ "exclude[]": [term.A.id, term.b.id] });
        expect(names(excluded.body)).toEqual(["C", "d", "É"]);
        expect(excluded.body.total).toBe(3);
      });

      it("lists over tRPC with the same items and totals", async () => {
        const rest = await api.list({ per_page: 2, orderby: "slug" });
        const rpc = await kind.rpc(server.client()).list({ per_page: 2, orderby: "slug" });
        expect(rpc.items).toEqual(termsOf(rest.body));
        expect([rpc.total, rpc.total_pages]).toEqual([5, 3]);
      });
    });

    describe("search, slug and event filters", () => {
      const server = useTestServer(provider);
      const api = termApi(server, kind);
      // Filled in beforeAll.
      const term = {} as Record<"Foo" | "Bar" | "Baz" | "One" | "Percent" | "Hundred" | "Cafe", TermLike>;
      let eventId = 0;
      let otherEventId = 0;

      beforeAll(async () => {
        term.Foo = await api.create({ name: "Foo" });
        term.Bar = await api.create({ name: "Bar" });
        term.Baz = await api.create({ name: "Baz" });
        term.One = await api.create({ name: "One", slug: "foo-bar" });
        term.Percent = await api.create({ name: "100% Jazz" });
        term.Hundred = await api.create({ name: "1000 Jazz" });
        term.Cafe = await api.create({ name: "Café Crème" });
        eventId = await createEventWith(server.db, kind, [term.Foo.id, term.Baz.id]);
        otherEventId = await createEventWith(server.db, kind, [term.Bar.id]);
        await createEvent(server.db, { title: "Without terms" });
      });

      it("matches a substring of the name or of the slug (the example of docs/behaviour.md § Categories and tags)", async () => {
        const foo = await api.list({ search: "foo", hide_empty: 0 });
        expect(names(foo.body)).toEqual(["Foo", "One"]);
        expect(foo.body.total).toBe(2);
        const bar = await api.list({ search: "bar", hide_empty: 0 });
        expect(names(bar.body)).toEqual(["Bar", "One"]);
        expect(bar.body.total).toBe(2);
      });

      it("searches case- and accent-insensitively", async () => {
        expect(names((await api.list({ search: "CAFE CREME", hide_empty: 0 })).body)).toEqual(["Café Crème"]);
        expect(names((await api.list({ search: "crè", hide_empty: 0 })).body)).toEqual(["Café Crème"]);
      });

      it("matches % and _ literally", async () => {
        expect(names((await api.list({ search: "100%", hide_empty: 0 })).body)).toEqual(["100% Jazz"]);
        expect(names((await api.list({ search: "0_j", hide_empty: 0 })).body)).toEqual([]);
        expect(names((await api.list({ search: "%", hide_empty: 0 })).body)).toEqual(["100% Jazz"]);
      });

      it("finds the term of a slug, and none for an unknown slug", async () => {
        expect(names((await api.list({ slug: "foo-bar", hide_empty: 0 })).body)).toEqual(["One"]);
        expect(names((await api.list({ slug: "Foo Bar", hide_empty: 0 })).body)).toEqual(["One"]);
        const unknown = await api.list({ slug: "nothing-here", hide_empty: 0 });
        expect(unknown.status).toBe(200);
        expect(termsOf(unknown.body)).toEqual([]);
      });

      it("lists the terms of an event with post or its alias event, event winning", async () => {
        expect(names((await api.list({ post: eventId })).body)).toEqual(["Baz", "Foo"]);
        expect(names((await api.list({ event: eventId })).body)).toEqual(["Baz", "Foo"]);
        expect(names((await api.list({ post: eventId, event: otherEventId })).body)).toEqual(["Bar"]);
      });

      it("lists nothing for an event without terms", async () => {
        const bare = await createEvent(server.db, { title: "Bare" });
        const { status, body } = await api.list({ event: bare, hide_empty: 0 });
        expect(status).toBe(200);
        expect(body.total).toBe(0);
      });
    });

    describe("languages and translations", () => {
      const server = useTestServer(provider);
      const api = termApi(server, kind);
      // Filled in beforeAll.
      const term = {} as Record<"en" | "de", TermLike>;

      beforeAll(async () => {
        term.en = await api.create({ name: "Music" });
        term.de = await api.create({ name: "Musik", translation_of: term.en.id, ml_language: "de" });
      });

      it("creates a term in the language of the prefix or of ml_language, the explicit one winning", async () => {
        const deRoot = `${server.origin}/de${API}`;
        expect(term.de).toEqual(
          api.expected(
            { id: term.de.id, name: "Musik", slug: "musik", language: "de", translations: { en: term.en.id } },
            api.apiRoot(),
            "de",
          ),
        );
        const prefixed = await server.call(api.route.create, {
          base: `/de${API}`,
          as: server.users.editor,
          body: { name: "Theater" },
        });
        expect(prefixed.body).toEqual(
          api.expected({ id: prefixed.body.id, name: "Theater", slug: "theater", language: "de" }, deRoot),
        );
        const explicit = await server.call(api.route.create, {
          base: `/de${API}`,
          as: server.users.editor,
          body: { name: "Théâtre", ml_language: "fr" },
        });
        expect(explicit.body.language).toBe("fr");
        expect(explicit.body.urls.self).toBe(`${deRoot}/${kind.key}/${explicit.body.id}?ml_language=fr`);
      });

      it("joins both terms to one translation group", async () => {
        expect((await api.get(term.en.id)).body.translations).toEqual({ de: term.de.id });
        const third = await api.create({ name: "Musique", translation_of: term.de.id, ml_language: "fr" });
        expect(third.translations).toEqual({ en: term.en.id, de: term.de.id });
        expect((await api.get(term.en.id)).body.translations).toEqual({ de: term.de.id, fr: third.id });
      });

      it("joins a group on update with translation_of", async () => {
        const lone = await api.create({ name: "Musica", ml_language: "zh-hans" });
        const { status, body } = await api.update(lone.id, { translation_of: term.en.id }, { as: server.users.editor });
        expect(status).toBe(200);
        expect(Object.keys(body.translations).sort()).toEqual(["de", "en", "fr"]);
      });

      it("lists only the terms of the request's language, and reaches any language by id", async () => {
        const de = await api.list({ hide_empty: 0 }, { base: `/de${API}` });
        expect(names(de.body)).toEqual(["Musik", "Theater"]);
        expect(names((await api.list({ hide_empty: 0, ml_language: "de" })).body)).toEqual(["Musik", "Theater"]);
        expect(names((await api.list({ hide_empty: 0 })).body)).toEqual(["Music"]);
        expect((await api.get(term.de.id)).body.name).toBe("Musik");
        expect((await kind.rpc(server.client()).list({ hide_empty: false, ml_language: "de" })).total).toBe(2);
      });

      it("allows the same name and slug in two languages", async () => {
        const en = await api.create({ name: "Kino" });
        const de = await api.create({ name: "Kino", ml_language: "de" });
        expect([en.slug, de.slug]).toEqual(["kino", "kino"]);
      });

      it("keeps the other members of a group when one is deleted", async () => {
        const fr = await api.create({ name: "Danse", ml_language: "fr" });
        const de = await api.create({ name: "Tanz", ml_language: "de", translation_of: fr.id });
        await api.remove(de.id, { as: server.users.editor });
        expect((await api.get(fr.id)).body.translations).toEqual({});
      });
    });
  });
}

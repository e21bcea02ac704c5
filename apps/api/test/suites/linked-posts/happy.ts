import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { first } from "../../support/narrow.ts";
import { useTestServer } from "../../support/server.ts";
import { API, expectedRecord, insertEvent, type LinkedPostKind, linkedPostApi, nameOf, recordsOf } from "./kinds.ts";

/** What venues and organizers both do when used as intended, over REST and tRPC. */
export function linkedPostHappySuite(kind: LinkedPostKind) {
  const name = kind.singular;

  describe.each(PROVIDERS)(`${kind.plural}: writing and reading (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const { route } = api;
    const admin = () => server.users.administrator;

    it("creates one with every field: 201 and the record as stored", async () => {
      const { status, body } = await server.call(route.create, {
        as: admin(),
        status: 201,
        body: {
          [name]: "The Globe",
          description: "<p>Open <em>air</em></p>",
          excerpt: "Round and wooden",
          date: "2024-05-01 10:00:00",
          ...kind.details,
        },
      });
      expect(status).toBe(201);
      expect(body).toEqual(
        expectedRecord(server, kind, {
          id: body.id,
          name: "The Globe",
          slug: "the-globe",
          author: admin().id,
          date: "2024-05-01 10:00:00",
          fields: { description: "<p>Open <em>air</em></p>", excerpt: "Round and wooden", ...kind.details },
        }),
      );
      expect(body.json_ld).toBeUndefined();
    });

    it("leaves empty optional fields out and takes a form body", async () => {
      const { status, body } = await server.call(route.create, {
        as: admin(),
        form: { [name]: "Bare", description: "", website: "" },
        status: 201,
      });
      expect(status).toBe(201);
      expect(body).toEqual(
        expectedRecord(server, kind, { id: body.id, name: "Bare", slug: "bare", author: admin().id }),
      );
    });

    it("reads one by id and by slug, with its schema.org JSON-LD", async () => {
      const created = await api.create({ [name]: "Café Zürich", description: "<b>Warm</b> place", ...kind.details });
      const byId = await server.call(route.item("GET"), { params: { id: created.id }, status: 200 });
      expect(byId.status).toBe(200);
      const { json_ld: jsonLd, ...record } = byId.body;
      expect(record).toEqual(created);
      expect(jsonLd).toMatchObject({
        "@context": "http://schema.org",
        "@type": kind.jsonLdType,
        name: "Café Zürich",
        description: "Warm place",
        url: created.url,
      });
      const bySlug = await server.call(route.bySlug("GET"), { params: { slug: "café-zürich" }, status: 200 });
      expect(bySlug.status).toBe(200);
      expect(bySlug.body).toEqual(byId.body);
      expect(created.slug).toBe("cafe-zurich");
    });

    it("updates only the fields sent, on POST, PUT and PATCH, by id and by slug", async () => {
      const created = await api.create({ [name]: "Old Vic", description: "Theatre", ...kind.details });
      const [firstField, secondField] = Object.keys(kind.details) as [string, string];
      const post = await server.call(route.item("POST"), {
        params: { id: created.id },
        as: admin(),
        body: { [name]: "Old Vic Theatre" },
        status: 200,
      });
      expect(post.status).toBe(200);
      expect(post.body).toEqual({
        ...created,
        [name]: "Old Vic Theatre",
        modified: post.body.modified,
        modified_utc: post.body.modified_utc,
      });
      const put = await server.call(route.bySlug("PUT"), {
        params: { slug: "old-vic" },
        as: admin(),
        body: { [firstField]: "" },
        status: 200,
      });
      expect(put.status).toBe(200);
      expect(put.body).not.toHaveProperty(firstField);
      expect(put.body.description).toBe("Theatre");
      const patch = await server.call(route.item("PATCH"), {
        params: { id: created.id },
        as: admin(),
        form: { description: "", [secondField]: "" },
        status: 200,
      });
      expect(patch.status).toBe(200);
      const { [firstField]: _first, [secondField]: _second, ...kept } = kind.details;
      expect(patch.body).toEqual(
        expectedRecord(server, kind, {
          id: created.id,
          name: "Old Vic Theatre",
          slug: "old-vic",
          author: admin().id,
          date: created.date,
          fields: kept,
        }),
      );
      const postBySlug = await server.call(route.bySlug("POST"), {
        params: { slug: "old-vic" },
        as: admin(),
        body: { excerpt: "Since 1818" },
      });
      expect(postBySlug.body.excerpt).toBe("Since 1818");
      const patchBySlug = await server.call(route.bySlug("PATCH"), {
        params: { slug: "old-vic" },
        as: admin(),
        body: { excerpt: "" },
      });
      expect(patchBySlug.body.excerpt).toBeUndefined();
    });

    it("renames the slug through the id path only, keeping slugs unique", async () => {
      const record = await api.create({ [name]: "Rename me" });
      await api.create({ [name]: "Taken" });
      const renamed = await server.call(route.item("PATCH"), {
        params: { id: record.id },
        as: admin(),
        body: { slug: "Taken" },
      });
      expect(renamed.body.slug).toBe("taken-2");
      const bySlug = await server.call(route.bySlug("PATCH"), {
        params: { slug: "taken-2" },
        as: admin(),
        body: { excerpt: "x" },
      });
      expect(bySlug.body.slug).toBe("taken-2");
    });

    it("makes slugs from the name, unique with -2, -3, and accepts an explicit slug", async () => {
      const one = await api.create({ [name]: "Twin Hall", description: "one" });
      const two = await api.create({ [name]: "Twin Hall", description: "two" });
      const three = await api.create({ [name]: "Twin Hall", description: "three" });
      const explicit = await api.create({ [name]: "Something", slug: "My Own Slug" });
      expect([one.slug, two.slug, three.slug, explicit.slug]).toEqual([
        "twin-hall",
        "twin-hall-2",
        "twin-hall-3",
        "my-own-slug",
      ]);
    });

    it("returns the existing record for a duplicate name, with the fields sent written onto it", async () => {
      const original = await api.create({ [name]: "Duplicate Venue", description: "A description", ...kind.details });
      const [field] = Object.keys(kind.details) as [string];
      const same = await server.call(route.create, {
        as: admin(),
        body: { [name]: "DUPLICATE venue", [field]: "Changed" },
        status: 201,
      });
      expect(same.status).toBe(201);
      expect(same.body.id).toBe(original.id);
      expect(nameOf(same.body)).toBe("Duplicate Venue");
      expect(same.body).toHaveProperty(field, "Changed");
      const sameDescription = await api.create({ [name]: "duplicate venue", description: "a description" });
      expect(sameDescription.id).toBe(original.id);
      const other = await api.create({ [name]: "Duplicate Venue", description: "Another one" });
      expect(other.id).not.toBe(original.id);
      expect(other.slug).toBe("duplicate-venue-2");
      const renamed = await server.call(route.item("PATCH"), {
        params: { id: other.id },
        as: admin(),
        body: { description: "A description" },
        status: 200,
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.id).toBe(other.id);
    });

    it("moves a record to the trash, unlinking it from its events; a second delete is 410", async () => {
      const record = await api.create({ [name]: "Short-lived" });
      const eventId = await insertEvent(server.db);
      await kind.link(server.db, eventId, record.id);
      const deleted = await server.call(route.item("DELETE"), { params: { id: record.id }, as: admin(), status: 200 });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({
        ...record,
        status: "trash",
        modified: deleted.body.modified,
        modified_utc: deleted.body.modified_utc,
      });
      expect(await kind.links(server.db, record.id)).toBe(0);
      expect(await server.db.event.count({ where: { id: eventId } })).toBe(1);
      const again = await server.fail(route.bySlug("DELETE"), 410, { params: { slug: "short-lived" }, as: admin() });
      expect(again.status).toBe(410);
      expect(again.body).toEqual({
        code: `${name}-is-in-trash`,
        message: `The ${name} is already trashed`,
        data: { status: 410 },
      });
      const trashed = await server.call(route.item("GET"), { params: { id: record.id }, as: admin() });
      expect(trashed.body.status).toBe("trash");
    });

    it("deletes permanently with force=true as an administrator, answering the record as it was", async () => {
      const record = await api.create({ [name]: "Gone for good", ...kind.details });
      await kind.link(server.db, await insertEvent(server.db), record.id);
      const deleted = await server.call(route.item("DELETE"), {
        params: { id: record.id },
        as: admin(),
        query: { force: "true" },
        status: 200,
      });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual(record);
      expect(await kind.row(server.db, record.id)).toBeNull();
      expect(await kind.links(server.db, record.id)).toBe(0);
    });

    it("serves the same operations over tRPC", async () => {
      const rpc = kind.trpc(server.client(admin()));
      const created = await rpc.create.mutate({ [name]: "Over tRPC", ...kind.details });
      expect(created).toEqual(
        expectedRecord(server, kind, {
          id: created.id,
          name: "Over tRPC",
          slug: "over-trpc",
          author: admin().id,
          fields: kind.details,
          date: created.date,
        }),
      );
      const read = await rpc.get.query({ id: created.id });
      expect(read.json_ld?.["@type"]).toBe(kind.jsonLdType);
      expect((await rpc.getBySlug.query({ slug: "over-trpc" })).id).toBe(created.id);
      const updated = await rpc.update.mutate({ id: created.id, description: "Typed" });
      expect(updated.description).toBe("Typed");
      expect((await rpc.updateBySlug.mutate({ slug: "over-trpc", excerpt: "Short" })).excerpt).toBe("Short");
      const list = await rpc.list.query({ search: "over trpc" });
      expect(recordsOf(list).map((record) => record.id)).toEqual([created.id]);
      expect((await rpc.delete.mutate({ id: created.id })).status).toBe("trash");
      expect(await kind.row(server.db, created.id)).toMatchObject({ status: "trash" });
      const again = await rpc.create.mutate({ [name]: "Over tRPC 2" });
      expect((await rpc.deleteBySlug.mutate({ slug: "over-trpc-2", force: true })).id).toBe(again.id);
      expect(await kind.row(server.db, again.id)).toBeNull();
    });
  });

  describe.each(PROVIDERS)(`${kind.plural}: lists (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const ids: number[] = [];

    beforeAll(async () => {
      // Same post date for the last two: the id decides.
      for (const [index, date] of [
        "2024-01-01 10:00:00",
        "2024-03-01 10:00:00",
        "2024-02-01 10:00:00",
        "2024-02-01 10:00:00",
      ].entries()) {
        ids.push((await api.create({ [name]: `Listed ${index}`, date })).id);
      }
    });

    it("lists newest first (post date, then id) in the envelope, with the total headers", async () => {
      const response = await api.list();
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual([kind.plural, "rest_url", "total", "total_pages"]);
      expect(recordsOf(response.body).map((record) => record.id)).toEqual([ids[1], ids[3], ids[2], ids[0]]);
      expect(response.body).toMatchObject({
        rest_url: `${server.origin}${API}/${kind.plural}/`,
        total: 4,
        total_pages: 1,
      });
      for (const header of ["x-wp-total", "x-tec-total"]) expect(response.headers.get(header)).toBe("4");
      for (const header of ["x-wp-totalpages", "x-tec-totalpages"]) expect(response.headers.get(header)).toBe("1");
      expect(first(recordsOf(response.body)).json_ld).toBeUndefined();
    });

    it("pages with links to the neighbouring pages", async () => {
      const firstPage = await api.list({ per_page: 3 });
      const base = `${server.origin}${API}/${kind.plural}/`;
      expect(firstPage.body).toMatchObject({
        rest_url: `${base}?per_page=3`,
        next_rest_url: `${base}?page=2&per_page=3`,
        total: 4,
        total_pages: 2,
      });
      expect(firstPage.body.previous_rest_url).toBeUndefined();
      const second = await api.list({ page: 2, per_page: 3 });
      expect(recordsOf(second.body).map((record) => record.id)).toEqual([ids[0]]);
      expect(second.body).toMatchObject({
        rest_url: `${base}?page=2&per_page=3`,
        previous_rest_url: `${base}?per_page=3`,
      });
      expect(second.body.next_rest_url).toBeUndefined();
      expect(second.headers.get("x-wp-totalpages")).toBe("2");
    });

    it("clamps per_page to 50 and defaults it to 9", async () => {
      const clamped = await api.list({ per_page: 500 });
      expect(clamped.status).toBe(200);
      expect(clamped.body.rest_url).toBe(`${server.origin}${API}/${kind.plural}/?per_page=50`);
      expect((await api.list()).body.rest_url).toBe(`${server.origin}${API}/${kind.plural}/`);
    });

    it("answers an empty first page with 200 and an empty list", async () => {
      const response = await api.list({ search: "nothing-like-this" });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        [kind.plural]: [],
        rest_url: `${server.origin}${API}/${kind.plural}/?search=nothing-like-this`,
        total: 0,
        total_pages: 0,
      });
      expect(response.headers.get("x-wp-total")).toBe("0");
    });
  });

  describe.each(PROVIDERS)(`${kind.plural}: event filters (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const events: Record<string, number> = {};

    beforeAll(async () => {
      const db = server.db;
      const past = new Date(Date.now() - 30 * 86_400_000);
      events.upcoming = await insertEvent(db);
      events.past = await insertEvent(db, { start: past });
      events.draftUpcoming = await insertEvent(db, { status: "draft" });
      events.privateUpcoming = await insertEvent(db, { status: "private" });
      events.none = await insertEvent(db);
      const records: Array<[string, string[], string?]> = [
        ["At upcoming", ["upcoming"]],
        ["At past", ["past"]],
        ["At draft", ["draftUpcoming"]],
        ["At private", ["privateUpcoming"]],
        ["At nothing", []],
        ["Draft at upcoming", ["upcoming"], "draft"],
      ];
      for (const [recordName, linked, status] of records) {
        const record = await api.create({ [name]: recordName, ...(status ? { status } : {}) });
        for (const event of linked) await kind.link(db, events[event] as number, record.id);
      }
    });

    it("keeps those linked to an event with event=<id>, visibility applying", async () => {
      expect(await api.names({ event: events.upcoming as number })).toEqual(["At upcoming"]);
      expect(await api.names({ event: events.upcoming as number }, { as: server.users.editor })).toEqual([
        "Draft at upcoming",
        "At upcoming",
      ]);
      expect(await api.names({ event: events.none as number })).toEqual([]);
    });

    it("keeps those linked to an event that is not a draft with has_events=true, the others with false", async () => {
      expect(await api.names({ has_events: "true" })).toEqual(["At past", "At upcoming"]);
      expect(await api.names({ has_events: "0" })).toEqual(["At nothing", "At private", "At draft"]);
      expect(await api.names({ has_events: "true" }, { as: server.users.editor })).toEqual([
        "Draft at upcoming",
        "At private",
        "At past",
        "At upcoming",
      ]);
    });

    it("keeps those with an upcoming event the requester may see with only_with_upcoming=true", async () => {
      expect(await api.names({ only_with_upcoming: "true" })).toEqual(["At upcoming"]);
      expect(await api.names({ only_with_upcoming: "1" }, { as: server.users.editor })).toEqual([
        "Draft at upcoming",
        "At private",
        "At draft",
        "At upcoming",
      ]);
      expect(await api.names({ only_with_upcoming: "false" })).toHaveLength(5);
    });

    it("lets editors filter by status", async () => {
      const editor = { as: server.users.editor };
      expect(await api.names({ status: "draft" }, editor)).toEqual(["Draft at upcoming"]);
      expect(await api.names({ status: "draft,publish" }, editor)).toHaveLength(6);
      expect(await api.names({ status: "publish" })).toHaveLength(5);
    });

    it("filters the same over tRPC", async () => {
      const rpc = kind.trpc(server.client(server.users.editor));
      const page = await rpc.list.query({ has_events: false, status: ["draft"] });
      expect(page.total).toBe(0);
      const upcoming = await rpc.list.query({ only_with_upcoming: true, event: events.upcoming });
      expect(recordsOf(upcoming).map(nameOf)).toEqual(["Draft at upcoming", "At upcoming"]);
    });
  });

  describe.each(PROVIDERS)(`${kind.plural}: languages (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const { route } = api;
    const de = `/de${API}`;

    it("creates in the language of the prefix or ml_language, and lists each language apart", async () => {
      const english = await api.create({ [name]: "Opera House" });
      const german = await server.call(route.create, {
        base: de,
        as: server.users.editor,
        body: { [name]: "Opera House" },
        status: 201,
      });
      expect(german.status).toBe(201);
      expect(german.body.id).not.toBe(english.id);
      expect(german.body).toEqual(
        expectedRecord(server, kind, {
          id: german.body.id,
          name: "Opera House",
          slug: "opera-house",
          author: server.users.editor.id,
          language: "de",
          root: "/de",
        }),
      );
      const french = await api.create({ [name]: "Opéra", ml_language: "fr" });
      expect(french.language).toBe("fr");
      expect(await api.names()).toEqual(["Opera House"]);
      const listedInGerman = await api.list({}, { base: de });
      expect(recordsOf(listedInGerman.body).map((record) => record.id)).toEqual([german.body.id]);
      expect(await api.names({ ml_language: "fr" })).toEqual(["Opéra"]);
      const bySlug = await server.call(route.bySlug("GET"), { base: de, params: { slug: "opera-house" } });
      expect(bySlug.body.id).toBe(german.body.id);
      const byId = await server.call(route.item("GET"), { params: { id: german.body.id } });
      expect(byId.body.language).toBe("de");
      await server.fail(route.bySlug("GET"), 400, { params: { slug: "opéra" } });
    });

    it("joins a translation group with translation_of and lists each member's translations", async () => {
      const english = await api.create({ [name]: "Concert Hall" });
      const german = await server.call(route.create, {
        base: de,
        as: server.users.editor,
        body: { [name]: "Konzerthaus", translation_of: english.id },
      });
      expect(german.body.translations).toEqual({ en: english.id });
      const french = await server.call(route.create, {
        as: server.users.editor,
        body: { [name]: "Salle de concert", translation_of: german.body.id, ml_language: "fr" },
      });
      expect(french.body.translations).toEqual({ en: english.id, de: german.body.id });
      const read = await server.call(route.item("GET"), { params: { id: english.id } });
      expect(read.body.translations).toEqual({ de: german.body.id, fr: french.body.id });
      const listed = await api.list({ search: "concert hall" });
      expect(first(recordsOf(listed.body)).translations).toEqual({ de: german.body.id, fr: french.body.id });
    });
  });
}

import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { FORBIDDEN_MESSAGE, restError, rpcError } from "../../support/errors.ts";
import { useTestServer } from "../../support/server.ts";
import { expectedRecord, type LinkedPost, type LinkedPostKind, linkedPostApi, recordsOf } from "./kinds.ts";

const UNAUTHORIZED = restError(401, "rest_forbidden", FORBIDDEN_MESSAGE);
const FORBIDDEN = restError(403, "rest_forbidden", FORBIDDEN_MESSAGE);

/** Who may do what with venues and organizers, what the public sees, and what a password hides. */
export function linkedPostSecuritySuite(kind: LinkedPostKind) {
  const name = kind.singular;

  describe.each(PROVIDERS)(`${kind.plural}: roles (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const { route } = api;
    const users = () => server.users;

    it("refuses anonymous writes with 401 and subscribers with 403, after validating the input", async () => {
      const anonymous = await server.fail(route.create, 401, { body: { [name]: "Nope" } });
      expect(anonymous.body).toEqual(UNAUTHORIZED);
      const subscriber = await server.fail(route.create, 403, { as: users().subscriber, body: { [name]: "Nope" } });
      expect(subscriber.body).toEqual(FORBIDDEN);
      await server.fail(route.create, 400, { body: { [name]: "Nope", author: 99_999 } });
      const missingAnonymous = await server.fail(route.create, 400, { body: {} });
      expect(missingAnonymous.body.code).toBe("rest_missing_callback_param");
      expect((await api.list()).body.total).toBe(0);
    });

    it("scales back a contributor's status: publish becomes pending, none becomes draft", async () => {
      const contributor = users().contributor;
      const pending = await api.create({ [name]: "Contributed", status: "publish" }, contributor);
      const draft = await api.create({ [name]: "Contributed draft" }, contributor);
      const published = await api.create({ [name]: "Authored" }, users().author);
      expect([pending.status, draft.status, published.status]).toEqual(["pending", "draft", "publish"]);
      expect(pending.author).toBe(String(contributor.id));
    });

    it("lets contributors edit their own unpublished records only", async () => {
      const contributor = users().contributor;
      const own = await api.create({ [name]: "Contributor's own" }, contributor);
      const ownPublished = await api.create({ [name]: "Contributor's published", author: contributor.id });
      const others = await api.create({ [name]: "Someone else's", status: "draft" }, users().author);
      const excerpt = { as: contributor, body: { excerpt: "mine" } };
      await server.call(route.item("PATCH"), { params: { id: own.id }, ...excerpt, status: 200 });
      for (const refused of [ownPublished, others]) {
        const response = await server.fail(route.item("PATCH"), 403, { params: { id: refused.id }, ...excerpt });
        expect(response.body).toEqual(FORBIDDEN);
      }
      const publish = { as: contributor, body: { status: "publish" } };
      expect((await server.call(route.item("PATCH"), { params: { id: own.id }, ...publish })).body.status).toBe(
        "pending",
      );
      await server.call(route.item("DELETE"), { params: { id: own.id }, as: contributor, status: 200 });
    });

    it("lets authors edit their own records, published or not, and nobody else's", async () => {
      const author = users().author;
      const own = await api.create({ [name]: "Author's own" }, author);
      const others = await api.create({ [name]: "Editor's" }, users().editor);
      const put = route.item("PUT");
      await server.call(put, { params: { id: own.id }, as: author, body: { excerpt: "mine" }, status: 200 });
      const refused = [
        await server.fail(put, 403, { params: { id: others.id }, as: author, body: { excerpt: "mine" } }),
        await server.fail(route.item("DELETE"), 403, { params: { id: others.id }, as: author }),
        await server.fail(put, 403, { params: { id: own.id }, as: author, body: { author: users().editor.id } }),
      ];
      expect(refused.map((response) => response.body)).toEqual([FORBIDDEN, FORBIDDEN, FORBIDDEN]);
      const anonymous = await server.fail(put, 401, { params: { id: own.id }, body: { excerpt: "anonymous" } });
      expect(anonymous.body).toEqual(UNAUTHORIZED);
    });

    it("lets editors edit everybody's records and reassign them", async () => {
      const record = await api.create({ [name]: "Reassigned" }, users().author);
      const response = await server.call(route.item("PATCH"), {
        params: { id: record.id },
        as: users().editor,
        body: { author: users().contributor.id },
        status: 200,
      });
      expect(response.body.author).toBe(String(users().contributor.id));
    });

    it("deletes permanently for administrators only; a bad id is 400 even anonymously", async () => {
      const record = await api.create({ [name]: "Forced" }, users().editor);
      const remove = route.item("DELETE");
      const force = { params: { id: record.id }, query: { force: "true" } };
      expect((await server.fail(remove, 403, { ...force, as: users().editor })).body).toEqual(FORBIDDEN);
      expect((await server.fail(remove, 401, force)).body).toEqual(UNAUTHORIZED);
      expect((await server.fail(remove, 401, { params: { id: record.id } })).body).toEqual(UNAUTHORIZED);
      await server.fail(remove, 400, { params: { id: 99_999 } });
      await server.call(remove, { ...force, as: users().administrator, status: 200 });
      expect(await kind.row(server.db, record.id)).toBeNull();
    });

    it("reuses a duplicate the actor may not edit without changing it", async () => {
      const original = await api.create({ [name]: "Shared Place", ...kind.details }, users().editor);
      const [field] = Object.keys(kind.details) as [string];
      const reused = await server.call(route.create, {
        as: users().contributor,
        body: { [name]: "shared place", [field]: "Hijacked" },
        status: 201,
      });
      expect(reused.status).toBe(201);
      expect(reused.body).toEqual(original);
    });

    it("refuses anonymous writes over tRPC too", async () => {
      const rpc = kind.trpc(server.client());
      expect(await rpcError(rpc.create.mutate({ [name]: "Anonymous" }))).toEqual({
        status: 401,
        domain: { code: "rest_forbidden", message: FORBIDDEN_MESSAGE, status: 401 },
      });
    });
  });

  describe.each(PROVIDERS)(`${kind.plural}: visibility (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const { route } = api;
    const records: Record<string, { id: number; slug: string }> = {};

    beforeAll(async () => {
      records.published = await api.create({ [name]: "Visible" });
      records.draft = await api.create({ [name]: "Editor draft", status: "draft" });
      records.contributed = await api.create({ [name]: "Contributed draft" }, server.users.contributor);
      const trashed = await api.create({ [name]: "Trashed" });
      await server.call(route.item("DELETE"), { params: { id: trashed.id }, as: server.users.administrator });
      records.trashed = trashed;
    });

    it("answers 403 for a record the requester may not read, by id and by slug", async () => {
      const notAccessible = restError(403, `${name}-not-accessible`, `The requested ${name} is not accessible`);
      for (const record of [records.draft, records.trashed, records.contributed]) {
        const response = await server.fail(route.item("GET"), 403, { params: { id: record?.id ?? 0 } });
        expect(response.body).toEqual(notAccessible);
      }
      const draft = { params: { slug: "editor-draft" } };
      expect((await server.fail(route.bySlug("GET"), 403, { ...draft, as: server.users.author })).body).toEqual(
        notAccessible,
      );
      await server.call(route.bySlug("GET"), { ...draft, as: server.users.editor, status: 200 });
      await server.call(route.item("GET"), {
        params: { id: records.contributed?.id ?? 0 },
        as: server.users.contributor,
        status: 200,
      });
    });

    it("lists what each role may see", async () => {
      expect(await api.names()).toEqual(["Visible"]);
      expect(await api.names({}, { as: server.users.contributor })).toEqual(["Contributed draft", "Visible"]);
      expect(await api.names({}, { as: server.users.editor })).toEqual([
        "Contributed draft",
        "Editor draft",
        "Visible",
      ]);
      expect(await api.names({ status: "trash" }, { as: server.users.editor })).toEqual(["Trashed"]);
      expect(await api.names({ status: "publish" }, { as: server.users.contributor })).toEqual(["Visible"]);
    });
  });

  describe.each(PROVIDERS)(`${kind.plural}: passwords (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const { route } = api;
    // Filled in beforeAll.
    let full: LinkedPost;
    const byId = () => ({ params: { id: full.id } });

    beforeAll(async () => {
      full = await api.create({
        [name]: "Secret Garden",
        description: "Behind the wall",
        excerpt: "Hidden",
        image: "https://example.org/garden.jpg",
        password: "open sesame",
        ...kind.details,
      });
    });

    const redacted = () =>
      expectedRecord(server, kind, {
        id: full.id,
        name: "Secret Garden",
        slug: "secret-garden",
        author: server.users.administrator.id,
        date: full.date,
      });

    it("shows only the name and bookkeeping fields without the password, never blanking the name", async () => {
      const { body } = await server.call(route.item("GET"), byId());
      const { json_ld: jsonLd, ...record } = body;
      expect(record).toEqual(redacted());
      expect(jsonLd).toEqual({
        "@context": "http://schema.org",
        "@type": kind.jsonLdType,
        name: "Secret Garden",
        url: full.url,
      });
      const wrong = await server.call(route.item("GET"), { ...byId(), query: { password: "wrong" } });
      expect(wrong.body.description).toBeUndefined();
      expect(JSON.stringify(body)).not.toContain("open sesame");
    });

    it("shows everything with the right password, and to those who may edit it", async () => {
      const unlocked = await server.call(route.bySlug("GET"), {
        params: { slug: "secret-garden" },
        query: { password: "open sesame" },
      });
      expect({ ...unlocked.body, json_ld: undefined }).toEqual({ ...full, json_ld: undefined });
      expect(unlocked.body.json_ld?.description).toBe("Behind the wall");
      const editor = await server.call(route.item("GET"), { ...byId(), as: server.users.editor });
      expect(editor.body.description).toBe("Behind the wall");
    });

    it("redacts it in lists for the public", async () => {
      const listed = await api.list();
      expect(recordsOf(listed.body)).toEqual([redacted()]);
      const asEditor = await api.list({}, { as: server.users.editor });
      expect(recordsOf(asEditor.body)).toEqual([full]);
    });

    it("removes the password with an empty one", async () => {
      await server.call(route.item("PATCH"), { ...byId(), as: server.users.administrator, body: { password: "" } });
      expect((await server.call(route.item("GET"), byId())).body.description).toBe("Behind the wall");
    });
  });
}

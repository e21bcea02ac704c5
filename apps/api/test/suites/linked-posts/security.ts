import type { TestUser } from "@calendar/core/testing";
import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../../support/server.ts";
import { errorBody, expectedRecord, FORBIDDEN_MESSAGE, type LinkedPostKind, linkedPostApi, rpcError } from "./kinds.ts";

const UNAUTHORIZED = errorBody(401, "rest_forbidden", FORBIDDEN_MESSAGE);
const FORBIDDEN = errorBody(403, "rest_forbidden", FORBIDDEN_MESSAGE);

/** Who may do what with venues and organizers, what the public sees, and what a password hides. */
export function linkedPostSecuritySuite(kind: LinkedPostKind) {
  const name = kind.singular;

  describe.each(PROVIDERS)(`${kind.plural}: roles (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const users = () => server.users;
    const write = (method: string, path: string, as: TestUser | undefined, body: Record<string, unknown> = {}) =>
      server.rest(method, path, { ...(as ? { as } : {}), body });

    it("refuses anonymous writes with 401 and subscribers with 403, after validating the input", async () => {
      expect((await write("POST", api.collection, undefined, { [name]: "Nope" })).body).toEqual(UNAUTHORIZED);
      expect((await write("POST", api.collection, users().subscriber, { [name]: "Nope" })).body).toEqual(FORBIDDEN);
      const invalidAnonymous = await write("POST", api.collection, undefined, { [name]: "Nope", author: 99_999 });
      expect(invalidAnonymous.status).toBe(400);
      const missingAnonymous = await write("POST", api.collection, undefined, {});
      expect(missingAnonymous.body.code).toBe("rest_missing_callback_param");
      expect(await server.rest("GET", api.collection).then((response) => response.body.total)).toBe(0);
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
      expect((await write("PATCH", api.item(own.id), contributor, { excerpt: "mine" })).status).toBe(200);
      expect((await write("PATCH", api.item(ownPublished.id), contributor, { excerpt: "mine" })).body).toEqual(
        FORBIDDEN,
      );
      expect((await write("PATCH", api.item(others.id), contributor, { excerpt: "mine" })).body).toEqual(FORBIDDEN);
      expect((await write("PATCH", api.item(own.id), contributor, { status: "publish" })).body.status).toBe("pending");
      expect((await server.rest("DELETE", api.item(own.id), { as: contributor })).status).toBe(200);
    });

    it("lets authors edit their own records, published or not, and nobody else's", async () => {
      const author = users().author;
      const own = await api.create({ [name]: "Author's own" }, author);
      const others = await api.create({ [name]: "Editor's" }, users().editor);
      expect((await write("PUT", api.item(own.id), author, { excerpt: "mine" })).status).toBe(200);
      expect((await write("PUT", api.item(others.id), author, { excerpt: "mine" })).body).toEqual(FORBIDDEN);
      expect((await server.rest("DELETE", api.item(others.id), { as: author })).body).toEqual(FORBIDDEN);
      expect((await write("PUT", api.item(own.id), author, { author: users().editor.id })).body).toEqual(FORBIDDEN);
      expect((await write("PUT", api.item(own.id), undefined, { excerpt: "anonymous" })).body).toEqual(UNAUTHORIZED);
    });

    it("lets editors edit everybody's records and reassign them", async () => {
      const record = await api.create({ [name]: "Reassigned" }, users().author);
      const response = await write("PATCH", api.item(record.id), users().editor, { author: users().contributor.id });
      expect(response.status).toBe(200);
      expect(response.body.author).toBe(String(users().contributor.id));
    });

    it("deletes permanently for administrators only; a bad id is 400 even anonymously", async () => {
      const record = await api.create({ [name]: "Forced" }, users().editor);
      const force = { query: { force: "true" } };
      expect((await server.rest("DELETE", api.item(record.id), { ...force, as: users().editor })).body).toEqual(
        FORBIDDEN,
      );
      expect((await server.rest("DELETE", api.item(record.id), force)).body).toEqual(UNAUTHORIZED);
      expect((await server.rest("DELETE", api.item(record.id))).body).toEqual(UNAUTHORIZED);
      expect((await server.rest("DELETE", api.item(99_999))).status).toBe(400);
      expect((await server.rest("DELETE", api.item(record.id), { ...force, as: users().administrator })).status).toBe(
        200,
      );
      expect(await kind.row(server.db, record.id)).toBeNull();
    });

    it("reuses a duplicate the actor may not edit without changing it", async () => {
      const original = await api.create({ [name]: "Shared Place", ...kind.details }, users().editor);
      const [field] = Object.keys(kind.details) as [string];
      const reused = await server.rest("POST", api.collection, {
        as: users().contributor,
        body: { [name]: "shared place", [field]: "Hijacked" },
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
    const records: Record<string, { id: number; slug: string }> = {};

    beforeAll(async () => {
      records.published = await api.create({ [name]: "Visible" });
      records.draft = await api.create({ [name]: "Editor draft", status: "draft" });
      records.contributed = await api.create({ [name]: "Contributed draft" }, server.users.contributor);
      const trashed = await api.create({ [name]: "Trashed" });
      await server.rest("DELETE", api.item(trashed.id), { as: server.users.administrator });
      records.trashed = trashed;
    });

    it("answers 403 for a record the requester may not read, by id and by slug", async () => {
      const notAccessible = errorBody(403, `${name}-not-accessible`, `The requested ${name} is not accessible`);
      for (const record of [records.draft, records.trashed, records.contributed]) {
        expect((await server.rest("GET", api.item(record?.id ?? 0))).body).toEqual(notAccessible);
      }
      expect((await server.rest("GET", api.bySlug("editor-draft"), { as: server.users.author })).body).toEqual(
        notAccessible,
      );
      expect((await server.rest("GET", api.bySlug("editor-draft"), { as: server.users.editor })).status).toBe(200);
      expect(
        (await server.rest("GET", api.item(records.contributed?.id ?? 0), { as: server.users.contributor })).status,
      ).toBe(200);
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
    let full: Record<string, unknown> = {};

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
        id: full.id as number,
        name: "Secret Garden",
        slug: "secret-garden",
        author: server.users.administrator.id,
        date: full.date as string,
      });

    it("shows only the name and bookkeeping fields without the password, never blanking the name", async () => {
      const { body } = await server.rest("GET", api.item(full.id as number));
      const { json_ld: jsonLd, ...record } = body;
      expect(record).toEqual(redacted());
      expect(jsonLd).toEqual({
        "@context": "http://schema.org",
        "@type": kind.jsonLdType,
        name: "Secret Garden",
        url: full.url,
      });
      expect(
        (await server.rest("GET", api.item(full.id as number), { query: { password: "wrong" } })).body.description,
      ).toBeUndefined();
      expect(JSON.stringify(body)).not.toContain("open sesame");
    });

    it("shows everything with the right password, and to those who may edit it", async () => {
      const unlocked = await server.rest("GET", api.bySlug("secret-garden"), { query: { password: "open sesame" } });
      expect({ ...unlocked.body, json_ld: undefined }).toEqual({ ...full, json_ld: undefined });
      expect(unlocked.body.json_ld.description).toBe("Behind the wall");
      const editor = await server.rest("GET", api.item(full.id as number), { as: server.users.editor });
      expect(editor.body.description).toBe("Behind the wall");
    });

    it("redacts it in lists for the public", async () => {
      const listed = await api.list();
      expect(listed.body[kind.plural]).toEqual([redacted()]);
      const asEditor = await api.list({}, { as: server.users.editor });
      expect(asEditor.body[kind.plural]).toEqual([full]);
    });

    it("removes the password with an empty one", async () => {
      await server.rest("PATCH", api.item(full.id as number), {
        as: server.users.administrator,
        body: { password: "" },
      });
      expect((await server.rest("GET", api.item(full.id as number))).body.description).toBe("Behind the wall");
    });
  });
}

import type { TestUser } from "@calendar/core/testing";
import { PROVIDERS, REDACTED_EVENT_DETAILS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { FORBIDDEN_MESSAGE, paramNames, restError, trpcFailure } from "../support/errors.ts";
import { useTestServer } from "../support/server.ts";
import { EVENTS, eventsOf } from "./support.ts";

const BASE = { start_date: "2030-11-01 10:00:00", end_date: "2030-11-01 11:00:00" };
const unauthorized = restError(401, "rest_forbidden", FORBIDDEN_MESSAGE);
const forbidden = restError(403, "rest_forbidden", FORBIDDEN_MESSAGE);

describe.each(PROVIDERS)("event roles and capabilities (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const users = () => server.users;

  it("lets contributors and up create, scaling contributors back to pending or draft", async () => {
    const anonymous = await server.fail("POST /events", 401, { body: { ...BASE, title: "Anonymous" } });
    expect(anonymous.body).toEqual(unauthorized);
    const subscriber = await server.fail("POST /events", 403, {
      as: users().subscriber,
      body: { ...BASE, title: "S" },
    });
    expect(subscriber.body).toEqual(forbidden);
    const statuses: Array<[string, string | undefined, string]> = [];
    for (const role of ["contributor", "author", "editor", "administrator"] as const) {
      for (const requested of ["publish", "future", "draft", undefined]) {
        const created = await events.create(
          { ...BASE, title: `${role} ${requested}`, ...(requested ? { status: requested } : {}) },
          users()[role],
        );
        statuses.push([role, requested, created.status]);
      }
    }
    expect(statuses).toEqual([
      ["contributor", "publish", "pending"],
      ["contributor", "future", "pending"],
      ["contributor", "draft", "draft"],
      ["contributor", undefined, "draft"],
      ["author", "publish", "publish"],
      ["author", "future", "future"],
      ["author", "draft", "draft"],
      ["author", undefined, "publish"],
      ["editor", "publish", "publish"],
      ["editor", "future", "future"],
      ["editor", "draft", "draft"],
      ["editor", undefined, "publish"],
      ["administrator", "publish", "publish"],
      ["administrator", "future", "future"],
      ["administrator", "draft", "draft"],
      ["administrator", undefined, "publish"],
    ]);
  });

  it("validates before checking permissions: a bad parameter is 400 even anonymously", async () => {
    const anonymousCreate = (body: Record<string, unknown>) => server.fail("POST /events", 400, { body });
    const invalid = await anonymousCreate({ title: "x", start_date: "nope", end_date: "nope" });
    expect(invalid.body.code).toBe("rest_invalid_param");
    const missing = await anonymousCreate({});
    expect(missing.body.code).toBe("rest_missing_callback_param");
    const unknownVenue = await anonymousCreate({ ...BASE, title: "x", venue: 99_999 });
    expect(unknownVenue.body.code).toBe("rest_invalid_param");
  });

  /** Who may edit and delete which event (docs/behaviour.md, "Roles and capabilities"). */
  it("applies the edit matrix: own drafts for contributors, own events for authors, all for editors", async () => {
    const { contributor, author, editor, administrator, subscriber } = users();
    const contributorDraft = await events.create({ ...BASE, title: "c draft", status: "draft" }, contributor);
    const contributorPublished = await events.create({ ...BASE, title: "c published", author: contributor.id });
    const authorPublished = await events.create({ ...BASE, title: "a published" }, author);
    const adminEvent = await events.create({ ...BASE, title: "admin" }, administrator);
    const attempt = async (as: TestUser | undefined, id: number) =>
      (await server.rest("PATCH", `${EVENTS}/${id}`, { ...(as ? { as } : {}), body: { excerpt: "edited" } })).status;
    const matrix = [];
    for (const [name, as] of [
      ["anonymous", undefined],
      ["subscriber", subscriber],
      ["contributor", contributor],
      ["author", author],
      ["editor", editor],
    ] as const) {
      matrix.push([
        name,
        await attempt(as, contributorDraft.id),
        await attempt(as, contributorPublished.id),
        await attempt(as, authorPublished.id),
        await attempt(as, adminEvent.id),
      ]);
    }
    expect(matrix).toEqual([
      ["anonymous", 401, 401, 401, 401],
      ["subscriber", 403, 403, 403, 403],
      ["contributor", 200, 403, 403, 403],
      ["author", 403, 403, 200, 403],
      ["editor", 200, 200, 200, 200],
    ]);
  });

  it("applies the same matrix to deletes, and keeps force for administrators", async () => {
    const { contributor, author, editor, administrator } = users();
    const ownDraft = await events.create({ ...BASE, title: "draft to delete", status: "draft" }, contributor);
    const othersEvent = await events.create({ ...BASE, title: "others" }, administrator);
    const ownPublished = await events.create({ ...BASE, title: "own published" }, author);
    const remove = async (as: TestUser | undefined, id: number, query = {}) =>
      (await server.rest("DELETE", `${EVENTS}/${id}`, { ...(as ? { as } : {}), query })).status;
    expect(await remove(undefined, othersEvent.id)).toBe(401);
    expect(await remove(contributor, othersEvent.id)).toBe(403);
    expect(await remove(author, othersEvent.id)).toBe(403);
    expect(await remove(contributor, ownDraft.id)).toBe(200);
    expect(await remove(author, ownPublished.id)).toBe(200);
    expect(await remove(editor, othersEvent.id, { force: "true" })).toBe(403);
    expect(await remove(administrator, othersEvent.id, { force: "true" })).toBe(200);
  });

  it("answers a missing event with 401 or 403 to those who may not edit events, 404 to the others", async () => {
    const { subscriber, contributor } = users();
    for (const method of ["PATCH", "DELETE"]) {
      const statuses = [];
      for (const as of [undefined, subscriber, contributor]) {
        const response = await server.rest(method, `${EVENTS}/99999`, {
          ...(as ? { as } : {}),
          ...(method === "PATCH" ? { body: { title: "x" } } : {}),
        });
        statuses.push(response.status);
      }
      expect([method, ...statuses]).toEqual([method, 401, 403, 404]);
    }
  });

  it("lets only editors write as another author", async () => {
    const { author, editor } = users();
    const asOther = await server.fail("POST /events", 403, {
      as: author,
      body: { ...BASE, title: "Ghost", author: editor.id },
    });
    expect(asOther.body).toEqual(forbidden);
    const asSelf = await events.create({ ...BASE, title: "Self", author: author.id }, author);
    expect(asSelf.author).toBe(String(author.id));
    const byEditor = await events.create({ ...BASE, title: "Assigned", author: author.id }, editor);
    expect(byEditor.author).toBe(String(author.id));
  });

  it("keeps a contributor's status change scaled back on update", async () => {
    const { contributor } = users();
    const draft = await events.create({ ...BASE, title: "Wants publishing", status: "draft" }, contributor);
    const response = await server.call("PATCH /events/{id}", {
      params: { id: draft.id },
      as: contributor,
      body: { status: "publish" },
      status: 200,
    });
    expect(response.body.status).toBe("pending");
  });

  it("refuses writes over tRPC with the same codes", async () => {
    expect(await trpcFailure(server.client().events.create.mutate({ ...BASE, title: "x" }))).toEqual({
      status: 401,
      code: "rest_forbidden",
      message: FORBIDDEN_MESSAGE,
    });
    expect(await trpcFailure(server.client(users().subscriber).events.create.mutate({ ...BASE, title: "x" }))).toEqual({
      status: 403,
      code: "rest_forbidden",
      message: FORBIDDEN_MESSAGE,
    });
  });
});

describe.each(PROVIDERS)("event visibility and passwords (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const users = () => server.users;
  const window = { start_date: "2030-12-01", end_date: "2030-12-31" };
  const day = { start_date: "2030-12-10 10:00:00", end_date: "2030-12-10 11:00:00" };

  it("shows unpublished events only to their author and to editors", async () => {
    const { contributor, author, editor } = users();
    const draft = await events.create({ ...day, title: "Hidden draft", status: "draft", slug: "hidden-draft" }, author);
    const notAccessible = restError(403, "event-not-accessible", "The requested event is not accessible");
    for (const as of [undefined, contributor]) {
      const byId = await server.fail("GET /events/{id}", 403, { params: { id: draft.id }, as });
      const bySlug = await server.fail("GET /events/by-slug/{slug}", 403, { params: { slug: "hidden-draft" }, as });
      expect([byId.body, bySlug.body]).toEqual([notAccessible, notAccessible]);
    }
    for (const as of [author, editor]) {
      await server.call("GET /events/{id}", { params: { id: draft.id }, as, status: 200 });
    }
  });

  it("lists published events to everyone, own ones to their authors and all but trash to editors", async () => {
    const { contributor, author, editor, administrator } = users();
    const published = await events.create({ ...day, title: "Visibility published", categories: ["visibility"] });
    const ownDraft = await events.create(
      { ...day, title: "Visibility draft", status: "draft", categories: ["visibility"] },
      contributor,
    );
    const pending = await events.create(
      { ...day, title: "Visibility pending", status: "pending", categories: ["visibility"] },
      author,
    );
    const trashed = await events.create({ ...day, title: "Visibility trashed", categories: ["visibility"] });
    await server.call("DELETE /events/{id}", { params: { id: trashed.id }, as: administrator });
    const query = { ...window, categories: "visibility" };
    expect(await events.ids(query)).toEqual([published.id]);
    expect(await events.ids(query, { as: contributor })).toEqual([published.id, ownDraft.id]);
    expect(await events.ids(query, { as: author })).toEqual([published.id, pending.id]);
    expect(await events.ids(query, { as: editor })).toEqual([published.id, ownDraft.id, pending.id]);
    expect((await events.list(query, { as: editor })).body.total).toBe(3);
    expect((await events.list(query)).body.total).toBe(1);
    expect(await events.ids({ ...query, status: "draft,pending" }, { as: editor })).toEqual([ownDraft.id, pending.id]);
    expect(await events.ids({ ...query, status: "trash" }, { as: editor })).toEqual([trashed.id]);
    expect(await events.ids({ ...query, status: "publish" }, { as: contributor })).toEqual([published.id]);
    const notAllowed = await server.fail("GET /events", 400, { query: { ...query, status: "draft" }, as: author });
    expect(paramNames(notAllowed.body)).toEqual(["status"]);
  });

  it("asks for the password of a protected event unless it is given or the actor may edit", async () => {
    const protectedEvent = await events.create({
      ...day,
      title: "Secret gig",
      slug: "secret-gig",
      password: "open sesame",
      description: "Backstage at midnight",
    });
    const locked = restError(
      403,
      "event-password-protected",
      "The requested event is not accessible without a password",
    );
    const params = { id: protectedEvent.id };
    const withoutTheRightPassword: Array<Record<string, string>> = [
      {},
      { password: "wrong" },
      { password: "open sesame " },
    ];
    for (const query of withoutTheRightPassword) {
      const response = await server.fail("GET /events/{id}", 403, { params, query });
      expect(response.body).toEqual(locked);
    }
    await server.fail("GET /events/by-slug/{slug}", 403, { params: { slug: "secret-gig" } });
    const unlocked = await server.call("GET /events/{id}", { params, query: { password: "open sesame" }, status: 200 });
    expect(unlocked.body.description).toBe("Backstage at midnight");
    await server.call("GET /events/{id}", { params, as: users().editor, status: 200 });
    expect(await trpcFailure(server.client().events.get.query({ id: protectedEvent.id }))).toMatchObject({
      status: 403,
      code: "event-password-protected",
    });
  });

  it("checks a trashed event before its visibility: 403 event-no-longer-available, for editors too", async () => {
    const trashed = await events.create({ ...day, title: "Binned", status: "draft", password: "x" });
    const params = { id: trashed.id };
    await server.call("DELETE /events/{id}", { params, as: users().administrator });
    for (const as of [undefined, users().editor]) {
      const response = await server.fail("GET /events/{id}", 403, { params, as });
      expect(response.body).toEqual(restError(403, "event-no-longer-available", "This event is no longer available"));
    }
  });

  it("redacts a protected event in lists unless the password is given or the actor may edit", async () => {
    const created = await events.create({
      ...day,
      title: "Redacted gig",
      password: "letmein",
      description: "Room 101",
      excerpt: "Secret",
      cost: "$5",
      website: "https://secret.example",
      featured: true,
      image: "https://img.example/secret.png",
      categories: ["redaction"],
      tags: ["hush"],
      venue: { venue: "Secret Room" },
      organizer: [{ organizer: "Secret Org" }],
    });
    // Found by its title: a filter on its category would not find it (the category is protected too).
    const query = { ...window, search: "redacted gig" };
    const [redacted] = (await events.list(query)).body.events;
    const { modified: _m, modified_utc: _u, ...kept } = created;
    expect({ ...redacted, modified: undefined, modified_utc: undefined }).toEqual({
      ...kept,
      modified: undefined,
      modified_utc: undefined,
      ...REDACTED_EVENT_DETAILS,
    });
    const [withPassword] = (await events.list({ ...query, password: "letmein" })).body.events;
    expect(withPassword).toEqual(created);
    const [asEditor] = (await events.list(query, { as: users().editor })).body.events;
    expect(asEditor).toEqual(created);
    const [redactedOverTrpc] = (
      await server
        .client()
        .events.list.query({ search: "redacted gig", start_date: window.start_date, end_date: window.end_date })
    ).events;
    expect(redactedOverTrpc?.description).toBe("");
  });

  it("finds a protected event by the words its password protects only for those who may edit it", async () => {
    const { author, editor } = users();
    const created = await events.create(
      { ...day, title: "Masked ball", password: "mask", excerpt: "xyzzy", description: "<p>plugh</p>" },
      author,
    );
    const otherAuthor = await events.create({ ...day, title: "Other ball", password: "mask", excerpt: "xyzzy" });
    for (const as of [undefined, users().subscriber, users().contributor]) {
      const request = as ? { as } : {};
      expect(await events.ids({ ...window, search: "xyzzy" }, request)).toEqual([]);
      expect(await events.ids({ ...window, search: "plugh" }, request)).toEqual([]);
      expect(await events.ids({ ...window, search: "masked" }, request)).toEqual([created.id]);
    }
    expect(await events.ids({ ...window, search: "xyzzy" }, { as: author })).toEqual([created.id]);
    expect(await events.ids({ ...window, search: "xyzzy" }, { as: editor })).toEqual([created.id, otherAuthor.id]);
    expect(await events.ids({ ...window, search: "ball plugh" }, { as: editor })).toEqual([created.id]);
    await server.call("PATCH /events/{id}", {
      params: { id: created.id },
      as: users().administrator,
      body: { password: "" },
      status: 200,
    });
    expect(await events.ids({ ...window, search: "plugh" })).toEqual([created.id]);
  });
});

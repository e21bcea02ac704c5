import { create, PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { invalidParams, restError, restFailure, trpcFailure } from "../support/errors.ts";
import { useTestServer } from "../support/server.ts";
import { EVENTS, eventsOf } from "./support.ts";

/** docs/behaviour.md, "Creating events" and "Updating": a write links only venues and organizers its caller may read. */

const WHEN = { start_date: "2030-05-01 10:00:00", end_date: "2030-05-01 11:00:00" };
const INVALID_LINKED_POST_ID = restError(400, "invalid-linked-post-id", "The provided linked post ID is not valid");

describe.each(PROVIDERS)("linking venues and organizers the writer may not read (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const users = () => server.users;

  /** An organizer of the editor's, with contact details, in `status`. */
  const editorsOrganizer = (status: string, name = `Secret ${status} organizer`) =>
    create.organizer(server.db, {
      name,
      status,
      authorId: users().editor.id,
      email: "hidden@example.com",
      phone: "+39 000",
    });

  const linksOf = async (eventId: number) => ({
    venues: (await server.db.eventVenue.findMany({ where: { eventId }, orderBy: { position: "asc" } })).map(
      (link) => link.venueId,
    ),
    organizers: (await server.db.eventOrganizer.findMany({ where: { eventId }, orderBy: { position: "asc" } })).map(
      (link) => link.organizerId,
    ),
  });

  it("refuses an author's create that links an editor's draft organizer by id, as it refuses an unknown id", async () => {
    const draft = await editorsOrganizer("draft");
    const before = await server.db.event.count();
    const refused = await server.fail("POST /events", 400, {
      as: users().author,
      body: { ...WHEN, title: "Leaky", organizer: draft.id },
    });
    expect(refused.body).toEqual(invalidParams({ organizer: `No organizer with the id(s) ${draft.id}.` }));
    const unknown = await server.fail("POST /events", 400, {
      as: users().author,
      body: { ...WHEN, title: "Leaky", organizer: 99_999 },
    });
    expect(unknown.body).toEqual(invalidParams({ organizer: "No organizer with the id(s) 99999." }));
    expect(refused.text).not.toContain("hidden@example.com");
    expect(
      await trpcFailure(
        server.client(users().author).events.create.mutate({ ...WHEN, title: "Leaky", organizer: [draft.id] }),
      ),
    ).toEqual(restFailure(refused));
    expect(await server.db.event.count()).toBe(before);
  });

  it("refuses a contributor's {id} link to another contributor's pending venue with invalid-linked-post-id", async () => {
    const other = await create.user(server.db, { login: "other-contributor", role: "contributor" });
    const pending = await create.venue(server.db, { name: "Pending hall", status: "pending", authorId: other.id });
    const before = await server.db.event.count();
    const refused = await server.fail("POST /events", 400, {
      as: users().contributor,
      body: { ...WHEN, title: "Leaky", venue: { id: pending.id } },
    });
    expect(refused.body).toEqual(INVALID_LINKED_POST_ID);
    const unknown = await server.fail("POST /events", 400, {
      as: users().contributor,
      body: { ...WHEN, title: "Leaky", venue: { id: 99_999 } },
    });
    expect(unknown.body).toEqual(refused.body);
    expect(
      await trpcFailure(
        server
          .client(users().contributor)
          .events.create.mutate({ ...WHEN, title: "Leaky", venue: [{ id: pending.id }] }),
      ),
    ).toEqual(restFailure(refused));
    expect(await server.db.event.count()).toBe(before);
  });

  it("refuses updates by id and by slug that link an unreadable record, leaving the event's links as they were", async () => {
    const draft = await editorsOrganizer("draft", "Draft organizer for updates");
    const mine = await events.create({ ...WHEN, title: "Author's event", organizer: [] }, users().author);
    for (const route of ["PATCH /events/{id}", "PUT /events/{id}", "POST /events/{id}"] as const) {
      const refused = await server.fail(route, 400, {
        as: users().author,
        params: { id: mine.id },
        body: { organizer: [draft.id] },
      });
      expect(refused.body).toEqual(invalidParams({ organizer: `No organizer with the id(s) ${draft.id}.` }));
    }
    const bySlug = await server.fail("PATCH /events/by-slug/{slug}", 400, {
      as: users().author,
      params: { slug: mine.slug },
      body: { organizer: { id: draft.id } },
    });
    expect(bySlug.body).toEqual(INVALID_LINKED_POST_ID);
    expect(
      await trpcFailure(server.client(users().author).events.update.mutate({ id: mine.id, organizer: [draft.id] })),
    ).toMatchObject({ status: 400, code: "rest_invalid_param", params: { organizer: expect.any(String) } });
    expect(await linksOf(mine.id)).toEqual({ venues: [], organizers: [] });
  });

  it("links what the writer may read: its own drafts, published records, and for editors everybody's drafts", async () => {
    const ownDraft = await create.venue(server.db, {
      name: "Own draft hall",
      status: "draft",
      authorId: users().author.id,
    });
    const published = await create.venue(server.db, { name: "Published hall", status: "publish" });
    const draft = await editorsOrganizer("draft", "Linkable by editors");
    const authors = await events.create(
      { ...WHEN, title: "Own links", venue: [ownDraft.id, published.id] },
      users().author,
    );
    expect(await linksOf(authors.id)).toEqual({ venues: [ownDraft.id, published.id], organizers: [] });
    const editors = await events.create(
      { ...WHEN, title: "Editor's links", organizer: draft.id },
      users().administrator,
    );
    expect(await linksOf(editors.id)).toEqual({ venues: [], organizers: [draft.id] });
  });

  it("keeps the links to records the writer may not read when it replaces the links it may read", async () => {
    const { author, editor } = users();
    const hiddenVenue = await create.venue(server.db, { name: "Hidden hall", status: "draft", authorId: editor.id });
    const hiddenOrganizer = await editorsOrganizer("private", "Hidden organizer");
    const visible = await create.venue(server.db, { name: "Visible hall", status: "publish" });
    const other = await create.venue(server.db, { name: "Other hall", status: "publish" });
    const event = await events.create({ ...WHEN, title: "Shared event", venue: [visible.id] }, author);
    await server.call("PATCH /events/{id}", {
      as: editor,
      params: { id: event.id },
      body: { venue: [visible.id, hiddenVenue.id], organizer: [hiddenOrganizer.id] },
    });
    await server.call("PATCH /events/{id}", { as: author, params: { id: event.id }, body: { venue: [other.id] } });
    expect(await linksOf(event.id)).toEqual({ venues: [other.id, hiddenVenue.id], organizers: [hiddenOrganizer.id] });
    await server.call("PATCH /events/by-slug/{slug}", {
      as: author,
      params: { slug: event.slug },
      body: { venue: 0, organizer: [] },
    });
    expect(await linksOf(event.id)).toEqual({ venues: [hiddenVenue.id], organizers: [hiddenOrganizer.id] });
    await server.client(author).events.update.mutate({ id: event.id, venue: [visible.id], title: "Renamed" });
    expect(await linksOf(event.id)).toEqual({ venues: [visible.id, hiddenVenue.id], organizers: [hiddenOrganizer.id] });
    await server.call("PATCH /events/{id}", { as: editor, params: { id: event.id }, body: { venue: 0, organizer: 0 } });
    expect(await linksOf(event.id)).toEqual({ venues: [], organizers: [] });
  });

  it("does not reuse an unreadable record of the same name for an inline organizer: it creates the writer's own", async () => {
    const draft = await editorsOrganizer("draft", "Namesake organizer");
    const created = await events.create(
      { ...WHEN, title: "Inline", organizer: { organizer: "Namesake organizer" } },
      users().author,
    );
    const [linked] = created.organizer;
    expect(linked?.id).not.toBe(draft.id);
    expect(linked?.author).toBe(String(users().author.id));
    expect(JSON.stringify(created)).not.toContain("hidden@example.com");
    expect(await server.db.organizer.count({ where: { nameKey: draft.nameKey } })).toBe(2);
  });

  it("refuses the same links in a raw REST form write as in JSON", async () => {
    const draft = await editorsOrganizer("pending", "Pending organizer for forms");
    const refused = await server.rest("POST", EVENTS, {
      as: users().author,
      form: { ...WHEN, title: "Form", organizer: String(draft.id) },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(invalidParams({ organizer: `No organizer with the id(s) ${draft.id}.` }));
  });
});

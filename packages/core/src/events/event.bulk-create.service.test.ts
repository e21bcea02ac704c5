import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles.ts";
import type { Db } from "../db/db.ts";
import { DomainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import type { Language } from "../shared/language.ts";
import { create, createTestActor, PROVIDERS, testScope, useTestDatabase } from "../testing/index.ts";
import { createEventsInBulk } from "./event.bulk-create.service.ts";
import { createEvent } from "./event.create.service.ts";

describe.each(PROVIDERS)("createEventsInBulk (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let db: Db;
  let editor: Actor;
  let venue = 0;
  let organizer = 0;
  let category = 0;
  const scope = (language: Language = "en", actor: Actor = editor): Scope =>
    testScope(database.current, actor, language);
  const event = (title: string, extra: Record<string, unknown> = {}) => ({
    title,
    start_date: "2031-03-01 19:00:00",
    end_date: "2031-03-01 21:00:00",
    ...extra,
  });

  async function failure(work: Promise<unknown>): Promise<DomainError> {
    const outcome = await work.then(
      () => undefined,
      (error: unknown) => error,
    );
    if (!(outcome instanceof DomainError)) throw new Error(`Expected a DomainError, got ${String(outcome)}`);
    return outcome;
  }

  beforeAll(async () => {
    db = database.current.handle.db;
    editor = await createTestActor(db, "bulk-editor", "editor");
    venue = (await create.venue(db, { name: "Hall" })).id;
    organizer = (await create.organizer(db, { name: "Club" })).id;
    category = (await create.category(db, { name: "Jazz" })).id;
  });

  it("creates the events in input order and links them as createEvent does", async () => {
    const ids = await createEventsInBulk(scope(), [
      event("First night", { venue: [venue], organizer: [{ id: organizer }], categories: [category, "New Term"] }),
      event("Second night", { tags: ["loud"], featured: true }),
    ]);
    const rows = await db.event.findMany({
      where: { id: { in: ids } },
      orderBy: { id: "asc" },
      include: { venues: true, organizers: true, categories: { include: { category: true } }, tags: true },
    });
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(rows.map((row) => [row.title, row.slug, row.featured])).toEqual([
      ["First night", "first-night", false],
      ["Second night", "second-night", true],
    ]);
    expect(rows[0]?.venues.map((link) => link.venueId)).toEqual([venue]);
    expect(rows[0]?.organizers.map((link) => link.organizerId)).toEqual([organizer]);
    expect(rows[0]?.categories.map((link) => link.category.name).sort()).toEqual(["Jazz", "New Term"]);
    expect(rows[1]?.tags).toHaveLength(1);
  });

  it("stores the same columns as a single creation of the same body", async () => {
    const body = event("Twin", {
      description: "<p>Same</p>",
      excerpt: "Same",
      cost: "10€ - 20€",
      timezone: "Europe/Paris",
      all_day: true,
      status: "draft",
      password: "pw",
      website: "https://example.org/twin",
    });
    const single = await createEvent(scope(), body);
    const [bulk] = await createEventsInBulk(scope(), [body]);
    const columns = async (id: number | undefined) => {
      const {
        id: _id,
        slug: _slug,
        postDate,
        postDateUtc,
        modified,
        modifiedUtc,
        ...rest
      } = await db.event.findUniqueOrThrow({ where: { id } });
      return rest;
    };
    expect(await columns(bulk)).toEqual(await columns(single.id));
  });

  it("gives repeated titles free slugs, after those already taken", async () => {
    await createEvent(scope(), event("Open stage"));
    const ids = await createEventsInBulk(scope(), [event("Open stage"), event("Open stage"), event("Open stage")]);
    const rows = await db.event.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
    expect(rows.map((row) => row.slug)).toEqual(["open-stage-2", "open-stage-3", "open-stage-4"]);
  });

  it("joins translation groups, starting the group of an event translated for the first time", async () => {
    const [original] = await createEventsInBulk(scope("en"), [event("Concert")]);
    const [german] = await createEventsInBulk(scope("de"), [event("Konzert", { translation_of: original })]);
    const [french] = await createEventsInBulk(scope("fr"), [
      event("Concert en français", { translation_of: original }),
    ]);
    const rows = await db.event.findMany({ where: { id: { in: [original ?? 0, german ?? 0, french ?? 0] } } });
    expect(new Set(rows.map((row) => row.translationGroup)).size).toBe(1);
    expect(rows[0]?.translationGroup).not.toBeNull();
    const twice = await failure(
      createEventsInBulk(scope("de"), [event("Noch ein Konzert", { translation_of: original })]),
    );
    expect(twice).toMatchObject({
      status: 400,
      code: "rest_invalid_param",
      extra: { params: { translation_of: expect.any(String) } },
    });
  });

  it("rejects a batch with an unknown link, an inline venue or a missing title, writing nothing", async () => {
    const before = await db.event.count();
    const unknownVenue = await failure(
      createEventsInBulk(scope(), [event("Fine"), event("Bad", { venue: [999_999] })]),
    );
    expect(unknownVenue).toMatchObject({
      status: 400,
      code: "rest_invalid_param",
      extra: { params: { venue: expect.any(String) } },
    });
    const unknownRef = await failure(createEventsInBulk(scope(), [event("Bad", { organizer: [{ id: 999_999 }] })]));
    expect(unknownRef).toMatchObject({ status: 400, code: "invalid-linked-post-id" });
    const inline = await failure(createEventsInBulk(scope(), [event("Bad", { venue: [{ venue: "New hall" }] })]));
    expect(inline).toMatchObject({ status: 400, extra: { params: { venue: expect.any(String) } } });
    const untitled = await failure(createEventsInBulk(scope(), [{ start_date: "2031-01-01", end_date: "2031-01-01" }]));
    expect(untitled).toMatchObject({ status: 400, extra: { params: { title: expect.any(String) } } });
    expect(await db.event.count()).toBe(before);
  });

  it("refuses a batch of an author that links an editor's draft venue or organizer, as an unknown one", async () => {
    const author = await createTestActor(db, "bulk-author", "author");
    const editorId = editor.kind === "user" ? editor.id : 0;
    const draftVenue = (await create.venue(db, { name: "Draft hall", status: "draft", authorId: editorId })).id;
    const draftOrganizer = (await create.organizer(db, { name: "Draft club", status: "draft", authorId: editorId })).id;
    const before = await db.event.count();
    const byId = await failure(
      createEventsInBulk(scope("en", author), [event("Fine"), event("Bad", { venue: [draftVenue] })]),
    );
    expect(byId).toMatchObject({
      status: 400,
      code: "rest_invalid_param",
      extra: { params: { venue: `No venue with the id(s) ${draftVenue}.` } },
    });
    const byRef = await failure(
      createEventsInBulk(scope("en", author), [event("Bad", { organizer: [{ id: draftOrganizer }] })]),
    );
    expect(byRef).toMatchObject({ status: 400, code: "invalid-linked-post-id" });
    expect(await db.event.count()).toBe(before);
  });

  it("needs the right to create events", async () => {
    const outcome = await failure(createEventsInBulk(scope("en", { kind: "anonymous" }), [event("Nope")]));
    expect(outcome).toMatchObject({ status: 401, code: "rest_forbidden" });
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles.ts";
import type { Db } from "../db/db.ts";
import { createEventsInBulk } from "../events/event.bulk-create.service.ts";
import { createEvent } from "../events/event.create.service.ts";
import { deleteEvent } from "../events/event.delete.service.ts";
import { updateEvent } from "../events/event.update.service.ts";
import type { Scope } from "../scope.ts";
import type { Language } from "../shared/language.ts";
import { create, createTestActor, PROVIDERS, testScope, useTestDatabase } from "../testing/index.ts";
import { recountTermEvents } from "./term.counts.ts";

describe.each(PROVIDERS)("term event counts kept by the event writes (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let db: Db;
  let actor: Actor;
  const ids = { rock: 0, jazz: 0, folk: 0, rockDe: 0, loud: 0, quiet: 0 };
  const scope = (language: Language = "en"): Scope => testScope(database.current, actor, language);
  const event = (title: string, extra: Record<string, unknown> = {}) => ({
    title,
    start_date: "2031-05-01 18:00:00",
    end_date: "2031-05-01 20:00:00",
    ...extra,
  });

  async function counts() {
    const categories = await db.category.findMany({ select: { id: true, eventCount: true }, orderBy: { id: "asc" } });
    const tags = await db.tag.findMany({ select: { id: true, eventCount: true }, orderBy: { id: "asc" } });
    return Object.fromEntries(
      [...categories, ...tags.map((tag) => ({ ...tag, id: -tag.id }))].map((row) => [row.id, row.eventCount]),
    );
  }

  /** The counts as the service keeps them, and the same counted from scratch. */
  async function keptAndRecounted() {
    const kept = await counts();
    await recountTermEvents(db);
    return { kept, recounted: await counts() };
  }

  async function countOf(model: "category" | "tag", id: number): Promise<number> {
    const row =
      model === "category"
        ? await db.category.findUniqueOrThrow({ where: { id } })
        : await db.tag.findUniqueOrThrow({ where: { id } });
    return row.eventCount;
  }

  beforeAll(async () => {
    db = database.current.handle.db;
    actor = await createTestActor(db, "counter", "administrator");
    const category = async (name: string, language = "en") => (await create.category(db, { name, language })).id;
    ids.rock = await category("Rock");
    ids.jazz = await category("Jazz");
    ids.folk = await category("Folk");
    ids.rockDe = await category("Rockmusik", "de");
    const tag = async (name: string) => (await create.tag(db, { name })).id;
    ids.loud = await tag("loud");
    ids.quiet = await tag("quiet");
  });

  it("counts a new published event for its terms, and a draft for none", async () => {
    await createEvent(scope(), event("Published", { categories: [ids.rock, ids.jazz], tags: [ids.loud] }));
    await createEvent(scope(), event("Draft", { categories: [ids.rock], tags: [ids.loud], status: "draft" }));
    expect([await countOf("category", ids.rock), await countOf("category", ids.jazz)]).toEqual([1, 1]);
    expect(await countOf("tag", ids.loud)).toBe(1);
  });

  it("counts an event only for the terms of its own language", async () => {
    await createEvent(scope(), event("English, German term", { categories: [ids.rockDe] }));
    expect(await countOf("category", ids.rockDe)).toBe(0);
  });

  it("moves the counts when an update changes the terms or the status", async () => {
    const created = await createEvent(scope(), event("Moving", { categories: [ids.folk], tags: [ids.quiet] }));
    expect([await countOf("category", ids.folk), await countOf("tag", ids.quiet)]).toEqual([1, 1]);
    await updateEvent(scope(), { id: created.id, categories: [ids.jazz] });
    expect([await countOf("category", ids.folk), await countOf("category", ids.jazz)]).toEqual([0, 2]);
    await updateEvent(scope(), { id: created.id, status: "draft" });
    expect([await countOf("category", ids.jazz), await countOf("tag", ids.quiet)]).toEqual([1, 0]);
    await updateEvent(scope(), { id: created.id, status: "publish", tags: [] });
    expect([await countOf("category", ids.jazz), await countOf("tag", ids.quiet)]).toEqual([2, 0]);
  });

  it("takes a trashed or deleted published event off its terms, and a trashed draft off none", async () => {
    const trashed = await createEvent(scope(), event("Trashed", { categories: [ids.folk], tags: [ids.quiet] }));
    const deleted = await createEvent(scope(), event("Deleted", { categories: [ids.folk] }));
    const draft = await createEvent(scope(), event("Draft", { categories: [ids.folk], status: "draft" }));
    expect(await countOf("category", ids.folk)).toBe(2);
    await deleteEvent(scope(), { id: trashed.id, force: false });
    expect([await countOf("category", ids.folk), await countOf("tag", ids.quiet)]).toEqual([1, 0]);
    await deleteEvent(scope(), { id: deleted.id, force: true });
    await deleteEvent(scope(), { id: draft.id, force: false });
    expect(await countOf("category", ids.folk)).toBe(0);
  });

  it("counts the events of a bulk creation as the single creations do", async () => {
    const bodies = Array.from({ length: 30 }, (_, index) =>
      event(`Bulk ${index}`, {
        categories: index % 2 ? [ids.rock] : [ids.rock, ids.jazz],
        tags: index % 3 ? [ids.loud] : [],
        status: index % 5 ? "publish" : "draft",
      }),
    );
    const before = await counts();
    await createEventsInBulk(scope(), bodies);
    const after = await counts();
    expect(after[ids.rock]).toBe((before[ids.rock] ?? 0) + 24);
    expect(after[ids.jazz]).toBe((before[ids.jazz] ?? 0) + 12);
    expect(after[-ids.loud]).toBe((before[-ids.loud] ?? 0) + 16);
  });

  it("keeps every count equal to counting from scratch", async () => {
    const { kept, recounted } = await keptAndRecounted();
    expect(kept).toEqual(recounted);
  });
});

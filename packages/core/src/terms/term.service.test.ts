import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, ANONYMOUS } from "../auth/roles.ts";
import type { Db } from "../db/db.ts";
import { DomainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import type { Language } from "../shared/language.ts";
import { create, createTestActor, PROVIDERS, testScope, useTestDatabase } from "../testing/index.ts";
import { recountTermEvents } from "./term.counts.ts";
import { findTermIdsForFilter, loadTermsById, resolveTermIdsForWrite } from "./term.lookup.ts";

/** The API root of `testScope`. */
const API = "http://calendar.test/cal/events/v1";

describe.each(PROVIDERS)("term functions for events (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let db: Db;
  const scope = (language: Language, actor: Actor = ANONYMOUS): Scope => testScope(database.current, actor, language);
  /** Only those who may manage terms create them by name (docs/behaviour.md, "Creating events"). */
  let editor: Actor = ANONYMOUS;

  const ids = { music: 0, musik: 0, theatre: 0, jazz: 0, numeric: 0, kunst: 0 };

  beforeAll(async () => {
    db = database.current.handle.db;
    editor = await createTestActor(db, "terms-editor", "editor");
    ids.music = (await create.category(db, { name: "Music", translationGroup: "music" })).id;
    ids.musik = (await create.category(db, { name: "Musik", language: "de", translationGroup: "music" })).id;
    ids.theatre = (await create.category(db, { name: "Theatre" })).id;
    ids.jazz = (await create.category(db, { name: "Jazz", parentId: ids.music })).id;
    ids.numeric = (await create.category(db, { name: "2024" })).id;
    ids.kunst = (await create.category(db, { name: "Kunst", language: "de", translationGroup: "art" })).id;
    await create.event(db, { title: "Concert", categories: { create: [{ categoryId: ids.jazz }] } });
    await recountTermEvents(db);
  });

  describe("loadTermsById", () => {
    it("presents the known ids as embedded terms with their published-event count", async () => {
      const terms = await loadTermsById(db, scope("en"), "category", [ids.jazz, ids.jazz, 999_999]);
      expect([...terms.keys()]).toEqual([ids.jazz]);
      expect(terms.get(ids.jazz)).toEqual({
        id: ids.jazz,
        name: "Jazz",
        slug: "jazz",
        term_group: 0,
        term_taxonomy_id: ids.jazz,
        taxonomy: "tribe_events_cat",
        description: "",
        parent: ids.music,
        count: 1,
        filter: "raw",
        urls: {
          self: `${API}/categories/${ids.jazz}`,
          collection: `${API}/categories`,
          up: `${API}/categories/${ids.music}`,
        },
        language: "en",
      });
    });

    it("answers an empty map for no ids", async () => {
      expect(await loadTermsById(db, scope("en"), "tag", [])).toEqual(new Map());
    });
  });

  describe("resolveTermIdsForWrite", () => {
    it("keeps existing ids, skips unknown ones and removes duplicates in order", async () => {
      const resolved = await db.$transaction((tx) =>
        resolveTermIdsForWrite(tx, scope("en"), "category", [ids.theatre, 999_999, ids.music, ids.theatre]),
      );
      expect(resolved).toEqual([ids.theatre, ids.music]);
    });

    it("uses the translation in the scope's language of an id of another language", async () => {
      const resolved = await db.$transaction((tx) =>
        resolveTermIdsForWrite(tx, scope("de"), "category", [ids.music, ids.theatre]),
      );
      expect(resolved).toEqual([ids.musik, ids.theatre]);
    });

    it("keeps an id of another language whose group has no member in the scope's language", async () => {
      const resolved = await db.$transaction((tx) => resolveTermIdsForWrite(tx, scope("en"), "category", [ids.kunst]));
      expect(resolved).toEqual([ids.kunst]);
    });

    it("finds names case-insensitively in the scope's language and creates the missing ones once", async () => {
      const resolved = await db.$transaction((tx) =>
        resolveTermIdsForWrite(tx, scope("en", editor), "category", ["THEATRE", "Open Air", "open air", ids.music]),
      );
      const created = await db.category.findMany({ where: { nameKey: "open air" } });
      expect(created).toEqual([
        {
          id: expect.any(Number),
          name: "Open Air",
          nameKey: "open air",
          slug: "open-air",
          description: "",
          parentId: null,
          language: "en",
          translationGroup: null,
          eventCount: 0,
        },
      ]);
      expect(resolved).toEqual([ids.theatre, created[0]?.id, ids.music]);
    });

    it("creates a named term in the scope's language even when another language has it", async () => {
      const resolved = await db.$transaction((tx) => resolveTermIdsForWrite(tx, scope("fr", editor), "tag", ["Musik"]));
      const [tag] = await db.tag.findMany({ where: { id: { in: resolved } } });
      expect(tag).toMatchObject({ name: "Musik", slug: "musik", language: "fr" });
    });

    it("creates nothing when the caller's transaction fails", async () => {
      await expect(
        db.$transaction(async (tx) => {
          await resolveTermIdsForWrite(tx, scope("en", editor), "tag", ["Rolled back"]);
          throw new Error("the event write failed");
        }),
      ).rejects.toThrow("the event write failed");
      expect(await db.tag.count({ where: { name: "Rolled back" } })).toBe(0);
    });
  });

  it("refuses unknown names from an actor who may not manage terms, listing them once, creating nothing", async () => {
    const author = await createTestActor(db, "terms-author", "author");
    const refusal = await db
      .$transaction((tx) =>
        resolveTermIdsForWrite(tx, scope("en", author), "category", ["theatre", "New", "NEW", "Other"]),
      )
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({
      status: 400,
      code: "rest_invalid_param",
      extra: {
        params: {
          categories:
            "Unknown name(s): New, Other. Only editors create terms by name; use existing ones or ask an editor.",
        },
      },
    });
    expect(await db.category.count({ where: { nameKey: { in: ["new", "other"] } } })).toBe(0);
    const known = await db.$transaction((tx) =>
      resolveTermIdsForWrite(tx, scope("en", author), "category", ["THEATRE"]),
    );
    expect(known).toEqual([ids.theatre]);
  });

  describe("findTermIdsForFilter", () => {
    it("resolves slugs in the scope's language, then ids", async () => {
      const found = await findTermIdsForFilter(scope("en"), "category", ["theatre", ids.jazz, "Music"], "categories");
      expect(found).toEqual([ids.theatre, ids.jazz, ids.music]);
    });

    it("resolves a numeric reference as a slug first", async () => {
      expect(await findTermIdsForFilter(scope("en"), "category", [2024], "categories")).toEqual([ids.numeric]);
    });

    it("rejects a slug of another language and unknown ids, naming the parameter", async () => {
      const failure = findTermIdsForFilter(scope("en"), "category", ["musik", 999_999, "theatre"], "categories");
      await expect(failure).rejects.toBeInstanceOf(DomainError);
      await expect(failure).rejects.toMatchObject({
        status: 400,
        code: "rest_invalid_param",
        extra: { params: { categories: "Unknown term(s): musik, 999999." } },
      });
    });
  });
});

import { type Db, type Provider, recountTermEvents } from "@calendar/core";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { createProgram } from "../src/cli/program.ts";

async function calendar(databaseUrl: string, ...args: string[]) {
  let stdout = "";
  let failure: unknown;
  const program = createProgram(
    {
      out: (text) => {
        stdout += text;
      },
      err: () => undefined,
    },
    { DATABASE_URL: databaseUrl },
  );
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (error) {
    failure = error;
  }
  return { stdout, failure };
}

async function eventsPerLanguage(db: Db) {
  const groups = await db.event.groupBy({ by: ["language"], _count: { _all: true }, orderBy: { language: "asc" } });
  return Object.fromEntries(groups.map((group) => [group.language, group._count._all]));
}

/** The term counts the seed left, and the same counted from scratch. */
async function termCounts(db: Db) {
  const read = async () => [
    ...(await db.category.findMany({ select: { eventCount: true }, orderBy: { id: "asc" } })),
    ...(await db.tag.findMany({ select: { eventCount: true }, orderBy: { id: "asc" } })),
  ];
  const kept = await read();
  await recountTermEvents(db);
  return { kept, recounted: await read() };
}

describe.each(PROVIDERS)("calendar db seed (%s)", (provider: Provider) => {
  describe("the demo calendar", () => {
    const database = useTestDatabase(provider);

    it("writes a season of events in English, German and French with their places, terms and series", async () => {
      const { stdout, failure } = await calendar(database.current.url, "db", "seed");
      expect(failure).toBeUndefined();
      expect(stdout).toMatch(/^Seeded 64 events, 6 venues, 4 organizers, 33 categories and 18 tags in \d+\.\ds\.\n$/);
      const db = database.current.handle.db;
      expect(await eventsPerLanguage(db)).toEqual({ de: 17, en: 30, fr: 17 });
      const groups = await db.event.groupBy({ by: ["translationGroup"], where: { translationGroup: { not: null } } });
      expect(groups).toHaveLength(17);
      expect(await db.event.count({ where: { parentId: { not: null } } })).toBe(28);
      expect(await db.category.count({ where: { language: "de", parentId: { not: null } } })).toBe(6);
      const { kept, recounted } = await termCounts(db);
      expect(kept).toEqual(recounted);
    });

    it("counts the terms' events anew with db recount, after the database was changed by hand", async () => {
      const db = database.current.handle.db;
      const category = await db.category.findFirstOrThrow({ where: { eventCount: { gt: 0 } } });
      await db.category.update({ where: { id: category.id }, data: { eventCount: 999 } });
      const { stdout, failure } = await calendar(database.current.url, "db", "recount");
      expect(failure).toBeUndefined();
      expect(stdout).toBe("Counted the events of every category and tag.\n");
      expect((await db.category.findUniqueOrThrow({ where: { id: category.id } })).eventCount).toBe(
        category.eventCount,
      );
    });

    it("refuses to seed a database that already has events", async () => {
      const { stdout, failure } = await calendar(database.current.url, "db", "seed");
      expect(stdout).toBe("");
      expect(failure).toMatchObject({
        status: 409,
        code: "seed_not_empty",
        message: expect.stringMatching(
          /^The database already holds \d+ event\(s\), and a seed goes into an empty one: point DATABASE_URL to a new file, for example DATABASE_URL=file:\.\/data\/demo\.db pnpm db:seed\.$/,
        ),
      });
    });
  });

  describe("the benchmark calendar", () => {
    const database = useTestDatabase(provider);

    it("writes the shape of issue 7: venues half located, a two-level tree, 200 tags, three languages", async () => {
      const { stdout, failure } = await calendar(database.current.url, "db", "seed", "--events", "40");
      expect(failure).toBeUndefined();
      expect(stdout).toMatch(/^Seeded 40 events, 500 venues, 300 organizers, 40 categories and 200 tags in/);
      const db = database.current.handle.db;
      expect(await db.venue.count({ where: { geoLat: { not: null }, geoLng: { not: null } } })).toBe(250);
      expect(await db.category.count({ where: { parentId: null } })).toBe(8);
      expect(await eventsPerLanguage(db)).toEqual({ de: 8, en: 24, fr: 8 });
      const translated = await db.event.count({ where: { language: { not: "en" }, translationGroup: { not: null } } });
      expect(translated).toBe(16);
      const unlinked = await db.event.count({
        where: { OR: [{ organizers: { none: {} } }, { categories: { none: {} } }, { tags: { none: {} } }] },
      });
      expect(unlinked).toBe(0);
      const { kept, recounted } = await termCounts(db);
      expect(kept).toEqual(recounted);
    });
  });
});

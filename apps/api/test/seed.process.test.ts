import { type Db, type Provider, recountTermEvents } from "@calendar/core";
import { PROVIDERS, useTestDatabase } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { benchmarkShape } from "../src/seed/benchmark-calendar.ts";
import { finished, runEntry } from "./support/process.ts";

/** `calendar …` as a user runs it: a Node process of the CLI. */
function calendar(databaseUrl: string, ...args: string[]) {
  return finished(runEntry("src/cli/main.ts", args, { DATABASE_URL: databaseUrl }));
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

/** Each command is a Node process that compiles the CLI with tsx: seconds each on a busy machine. */
const PROCESS_TIMEOUT = { timeout: 180_000 };

describe.each(PROVIDERS)("calendar db seed (%s)", PROCESS_TIMEOUT, (provider: Provider) => {
  describe("the demo calendar", () => {
    const database = useTestDatabase(provider);

    it("writes a season of events in English, German and French with their places, terms and series", async () => {
      const { code, stdout } = await calendar(database.current.url, "db", "seed");
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Seeded 64 events, 18 venues, 12 organizers, 33 categories and 18 tags in \d+\.\ds\.\n$/);
      const db = database.current.handle.db;
      expect(await eventsPerLanguage(db)).toEqual({ de: 17, en: 30, fr: 17 });
      const groups = await db.event.groupBy({ by: ["translationGroup"], where: { translationGroup: { not: null } } });
      expect(groups).toHaveLength(17);
      expect(await db.event.count({ where: { parentId: { not: null } } })).toBe(28);
      expect(await db.category.count({ where: { language: "de", parentId: { not: null } } })).toBe(6);
      const { kept, recounted } = await termCounts(db);
      expect(kept).toEqual(recounted);
    });

    it("links German and French events to the venues and organizers translated into their language", async () => {
      const db = database.current.handle.db;
      for (const language of ["de", "fr"]) {
        expect(await db.venue.count({ where: { language, translationGroup: { not: null } } })).toBe(6);
        expect(await db.organizer.count({ where: { language, translationGroup: { not: null } } })).toBe(4);
        const linked = await db.event.findMany({
          where: { language },
          select: {
            venues: { select: { venue: { select: { language: true } } } },
            organizers: { select: { organizer: { select: { language: true } } } },
          },
        });
        expect(linked.length).toBe(17);
        const languages = new Set(
          linked.flatMap((event) => [
            ...event.venues.map((link) => link.venue.language),
            ...event.organizers.map((link) => link.organizer.language),
          ]),
        );
        expect(languages).toEqual(new Set([language]));
      }
      const german = await db.venue.findFirstOrThrow({ where: { language: "de", name: "Konzerthaus am Fluss" } });
      const english = await db.venue.findFirstOrThrow({ where: { language: "en", name: "Riverside Concert Hall" } });
      expect(german.translationGroup).toBe(english.translationGroup);
    });

    it("counts the terms' events anew with db recount, after the database was changed by hand", async () => {
      const db = database.current.handle.db;
      const category = await db.category.findFirstOrThrow({ where: { eventCount: { gt: 0 } } });
      await db.category.update({ where: { id: category.id }, data: { eventCount: 999 } });
      expect(await calendar(database.current.url, "db", "recount")).toEqual({
        code: 0,
        stdout: "Counted the events of every category and tag.\n",
        stderr: "",
      });
      expect((await db.category.findUniqueOrThrow({ where: { id: category.id } })).eventCount).toBe(
        category.eventCount,
      );
    });

    it("refuses to seed a database that already has events, naming --force and a new DATABASE_URL", async () => {
      expect(await calendar(database.current.url, "db", "seed")).toEqual({
        code: 1,
        stdout: "",
        stderr:
          "error: The database already holds 64 event(s). Run the seed with --force to add the demo data to them, or point DATABASE_URL to a new database, for example DATABASE_URL=file:./data/demo.db.\n",
      });
      expect(await database.current.handle.db.event.count()).toBe(64);
    });

    it("adds the demo events to a calendar with events with --force, reusing its venues, organizers and terms", async () => {
      const db = database.current.handle.db;
      const { code, stdout } = await calendar(database.current.url, "db", "seed", "--force");
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Seeded 64 events, /);
      expect(await eventsPerLanguage(db)).toEqual({ de: 34, en: 60, fr: 34 });
      expect(await db.venue.count()).toBe(18);
      expect(await db.organizer.count()).toBe(12);
      expect((await db.category.count()) + (await db.tag.count())).toBe(33 + 18);
      const { kept, recounted } = await termCounts(db);
      expect(kept).toEqual(recounted);
    });
  });

  describe("the benchmark calendar", () => {
    const database = useTestDatabase(provider);

    it("scales the linked records of issue 7's shape down to 40 events, in three languages", async () => {
      const { code, stdout } = await calendar(database.current.url, "db", "seed", "--events", "40");
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Seeded 40 events, 20 venues, 12 organizers, 8 categories and 10 tags in/);
      const db = database.current.handle.db;
      expect(await db.venue.count({ where: { geoLat: { not: null }, geoLng: { not: null } } })).toBe(10);
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

describe("benchmarkShape", () => {
  it("keeps issue 7's linked records from 1,000 events (the benchmark's sizes) and scales them below", () => {
    const full = { venues: 500, organizers: 300, subcategories: 4, tags: 200 };
    expect(benchmarkShape(1_000)).toEqual(full);
    expect(benchmarkShape(100_000)).toEqual(full);
    expect(benchmarkShape(50)).toEqual({ venues: 25, organizers: 15, subcategories: 0, tags: 10 });
    expect(benchmarkShape(1)).toEqual({ venues: 1, organizers: 1, subcategories: 0, tags: 10 });
  });
});

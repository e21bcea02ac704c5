import type { Db, Language, RouterOutputs } from "@calendar/core";
import { create, PROVIDERS, type TestUser } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { type Failure, invalidParam, restFailure, trpcFailure } from "../support/errors.ts";
import { found } from "../support/narrow.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { type TestServer, useTestServer } from "../support/server.ts";
import {
  DEFAULT_SELECTOR,
  daysAhead,
  ids,
  itemsOf,
  type Query,
  type Resource,
  ROOT,
  readerOf,
  type Selector,
  selectorsOf,
  writerOf,
} from "./support.ts";

/** What differs between the kinds of record in translation matters. */
interface Kind {
  resource: Resource;
  body(name: string): Record<string, unknown>;
  /** Events, venues and organizers have statuses and a trash; terms are deleted at once. */
  post: boolean;
  unknown(id: number): string;
  taken(id: number, language: Language): string;
  /** Inserts a record of another kind with this id (which this kind does not have). */
  otherKind(db: Db, id: number): Promise<unknown>;
}

const elsewhere = (id: number) => ({ id, name: "Elsewhere", slug: `elsewhere-${id}` });

const KINDS: Kind[] = [
  {
    resource: "events",
    body: (title) => ({ title, start_date: daysAhead(20), end_date: daysAhead(20, 12) }),
    post: true,
    unknown: (id) => `No other event with the id ${id}.`,
    taken: (id, language) => `Event ${id} already has a translation in "${language}".`,
    otherKind: (db, id) => create.venue(db, elsewhere(id)),
  },
  {
    resource: "venues",
    body: (venue) => ({ venue }),
    post: true,
    unknown: (id) => `No venue has the id ${id}.`,
    taken: (_id, language) => `That venue already has a ${language} translation.`,
    otherKind: (db, id) => create.organizer(db, elsewhere(id)),
  },
  {
    resource: "organizers",
    body: (organizer) => ({ organizer }),
    post: true,
    unknown: (id) => `No organizer has the id ${id}.`,
    taken: (_id, language) => `That organizer already has a ${language} translation.`,
    otherKind: (db, id) => create.venue(db, elsewhere(id)),
  },
  {
    resource: "categories",
    body: (name) => ({ name }),
    post: false,
    unknown: () => "No category has this id.",
    taken: (_id, language) => `Its translation group already has a ${language} category.`,
    otherKind: (db, id) => create.tag(db, elsewhere(id)),
  },
  {
    resource: "tags",
    body: (name) => ({ name }),
    post: false,
    unknown: () => "No tag has this id.",
    taken: (_id, language) => `Its translation group already has a ${language} tag.`,
    otherKind: (db, id) => create.category(db, elsewhere(id)),
  },
];

const GERMAN = selectorsOf("de")[0] as Selector;
const FRENCH_OVER_TRPC = selectorsOf("fr")[3] as Selector;
const CHINESE_BY_PARAMETER = selectorsOf("zh-hans")[1] as Selector;

/** A write through REST under a language base that must fail, as a failure. */
async function failedWrite(
  server: TestServer,
  method: string,
  path: string,
  body: Record<string, unknown>,
  as: TestUser = server.users.administrator,
): Promise<Failure> {
  return restFailure(await server.rest<RestErrorBody>(method, path, { as, body }));
}

/**
 * An id above every record's, for a record of another kind: no record of this kind has it. (SQLite numbers the
 * next rows of that table after it, so it must also clear the ids other tests jumped to.)
 */
async function unusedId(db: Db): Promise<number> {
  const maxima = await Promise.all([
    db.event.aggregate({ _max: { id: true } }),
    db.venue.aggregate({ _max: { id: true } }),
    db.organizer.aggregate({ _max: { id: true } }),
    db.category.aggregate({ _max: { id: true } }),
    db.tag.aggregate({ _max: { id: true } }),
  ]);
  return Math.max(...maxima.map((row) => row._max.id ?? 0)) + 1_000;
}

describe.each(PROVIDERS)("languages: translation groups (%s)", (provider) => {
  const server = useTestServer(provider);

  describe.each(KINDS)("$resource", (kind) => {
    const english = () => writerOf(server, DEFAULT_SELECTOR);
    const german = () => writerOf(server, GERMAN);
    const french = () => writerOf(server, FRENCH_OVER_TRPC);
    const translationsOf = async (id: number, as?: TestUser) =>
      (await readerOf(server, DEFAULT_SELECTOR, as).get(kind.resource, id)).translations;
    const collection = (language: Language | null) =>
      `${language ? `/${language}` : ""}/cal/events/v1/${kind.resource}`;

    it("joins the group of translation_of over REST and tRPC; every member names the others by language", async () => {
      const en = await english().create(kind.resource, kind.body("Group One"));
      const de = await german().create(kind.resource, { ...kind.body("Gruppe Eins"), translation_of: en.id });
      const fr = await french().create(kind.resource, { ...kind.body("Groupe Un"), translation_of: de.id });
      expect([en.translations, de.translations, fr.translations]).toEqual([
        {},
        { en: en.id },
        { en: en.id, de: de.id },
      ]);
      expect([de.language, fr.language]).toEqual(["de", "fr"]);
      expect(await translationsOf(en.id)).toEqual({ de: de.id, fr: fr.id });
      expect(await translationsOf(de.id)).toEqual({ en: en.id, fr: fr.id });

      const listed = await readerOf(server, FRENCH_OVER_TRPC).list(
        kind.resource,
        kind.post ? {} : { hide_empty: false },
      );
      const inList = found(itemsOf(kind.resource, listed).find((item) => item.id === fr.id));
      expect(inList.translations).toEqual({ en: en.id, de: de.id });

      const zh = await writerOf(server, CHINESE_BY_PARAMETER).create(kind.resource, kind.body("Group Zh"));
      const joined = await english().update(kind.resource, zh.id, { translation_of: en.id });
      expect(joined).toMatchObject({
        id: zh.id,
        language: "zh-hans",
        translations: { en: en.id, de: de.id, fr: fr.id },
      });
      expect(await translationsOf(en.id)).toEqual({ de: de.id, fr: fr.id, "zh-hans": zh.id });
    });

    it("refuses a translation_of that is unknown, of another kind or whose group has the language, with 400", async () => {
      const otherKindId = await unusedId(server.db);
      await kind.otherKind(server.db, otherKindId);
      const en = await english().create(kind.resource, kind.body("Refusals"));
      const de = await german().create(kind.resource, { ...kind.body("Ablehnungen"), translation_of: en.id });
      const before = await server.db.$transaction([
        server.db.event.count(),
        server.db.venue.count(),
        server.db.organizer.count(),
        server.db.category.count(),
        server.db.tag.count(),
      ]);

      for (const id of [999_999, otherKindId]) {
        expect(
          await failedWrite(server, "POST", collection("fr"), { ...kind.body("Lost"), translation_of: id }),
        ).toEqual(invalidParam("translation_of", kind.unknown(id)));
      }
      expect(
        await failedWrite(server, "POST", collection("de"), { ...kind.body("Zweite"), translation_of: en.id }),
      ).toEqual(invalidParam("translation_of", kind.taken(en.id, "de")));
      expect(
        await failedWrite(server, "POST", collection(null), { ...kind.body("Second"), translation_of: de.id }),
      ).toEqual(invalidParam("translation_of", kind.taken(de.id, "en")));
      const input = { ...kind.body("Zweite"), translation_of: en.id, ml_language: "de" };
      expect(
        await trpcFailure(server.procedures(server.users.administrator).mutation(`${kind.resource}.create`, input)),
      ).toEqual(invalidParam("translation_of", kind.taken(en.id, "de")));
      const lone = await german().create(kind.resource, kind.body("Allein"));
      expect(await failedWrite(server, "POST", `${collection(null)}/${lone.id}`, { translation_of: en.id })).toEqual(
        invalidParam("translation_of", kind.taken(en.id, "de")),
      );

      const after = await server.db.$transaction([
        server.db.event.count(),
        server.db.venue.count(),
        server.db.organizer.count(),
        server.db.category.count(),
        server.db.tag.count(),
      ]);
      const grown = after.map((count, index) => count - (before[index] ?? 0));
      expect(grown).toEqual(KINDS.map((each) => (each === kind ? 1 : 0)));
      expect(await translationsOf(lone.id)).toEqual({});
      expect(await translationsOf(en.id)).toEqual({ de: de.id });
    });

    it("removes a deleted record from its group; the others keep theirs and the language is free again", async () => {
      const en = await english().create(kind.resource, kind.body("Leaving"));
      const de = await german().create(kind.resource, { ...kind.body("Abschied"), translation_of: en.id });
      const fr = await french().create(kind.resource, { ...kind.body("Départ"), translation_of: en.id });

      const deleted = await server.call(`DELETE /${kind.resource}/{id}`, {
        base: `/de${ROOT}`,
        params: { id: de.id },
        as: server.users.administrator,
        status: 200,
      });
      expect(deleted.status).toBe(200);
      // Posts go to the trash and leave the group; terms are deleted and answered as they were.
      expect(deleted.body.translations).toEqual(kind.post ? {} : { en: en.id, fr: fr.id });
      expect(await translationsOf(en.id)).toEqual({ fr: fr.id });
      expect(await translationsOf(fr.id)).toEqual({ en: en.id });

      const again = await german().create(kind.resource, { ...kind.body("Neuer Abschied"), translation_of: fr.id });
      expect(again.translations).toEqual({ en: en.id, fr: fr.id });
      expect(await translationsOf(en.id)).toEqual({ de: again.id, fr: fr.id });

      if (kind.post) {
        const forced = await server.call(`DELETE /${kind.resource}/{id}`, {
          params: { id: fr.id },
          as: server.users.administrator,
          query: { force: true },
          status: 200,
        });
        expect(forced.status).toBe(200);
        expect(await translationsOf(en.id)).toEqual({ de: again.id });
        expect(await translationsOf(again.id)).toEqual({ en: en.id });
      }
    });

    if (kind.post) {
      it("refuses to translate a trashed record or one the writer cannot see", async () => {
        const trashed = await english().create(kind.resource, kind.body("Trashed"));
        await server.call(`DELETE /${kind.resource}/{id}`, {
          params: { id: trashed.id },
          as: server.users.administrator,
        });
        expect(
          await failedWrite(server, "POST", collection("de"), { ...kind.body("Müll"), translation_of: trashed.id }),
        ).toEqual(invalidParam("translation_of", kind.unknown(trashed.id)));

        const draft = await english().create(kind.resource, { ...kind.body("Editor draft"), status: "draft" });
        const contributor = server.users.contributor;
        expect(
          await failedWrite(
            server,
            "POST",
            collection("de"),
            { ...kind.body("Entwurf"), translation_of: draft.id },
            contributor,
          ),
        ).toEqual(invalidParam("translation_of", kind.unknown(draft.id)));
        const byEditor = await german().create(
          kind.resource,
          { ...kind.body("Entwurf"), translation_of: draft.id },
          server.users.editor,
        );
        expect(byEditor.translations).toEqual({ en: draft.id });
      });

      it("names in translations only the members the reader can see", async () => {
        const en = await english().create(kind.resource, kind.body("Published original"));
        const contributor = server.users.contributor;
        // A contributor may not translate a record it may not edit: an editor files the contributor's draft.
        const pending = await german().create(
          kind.resource,
          { ...kind.body("Eingereicht"), translation_of: en.id, author: contributor.id, status: "draft" },
          server.users.editor,
        );
        expect(pending).toMatchObject({ status: "draft" });
        expect(await translationsOf(en.id)).toEqual({});
        expect(await translationsOf(en.id, server.users.subscriber)).toEqual({});
        expect(await translationsOf(en.id, contributor)).toEqual({ de: pending.id });
        expect(await translationsOf(en.id, server.users.editor)).toEqual({ de: pending.id });
        const onlyOriginal: Query =
          kind.resource === "events" ? { include: [en.id] } : { search: "Published original" };
        const anonymousList = await readerOf(server, DEFAULT_SELECTOR).list(kind.resource, onlyOriginal);
        expect(itemsOf(kind.resource, anonymousList).map((item) => [item.id, item.translations])).toEqual([
          [en.id, {}],
        ]);
      });
    }
  });
});

/** The records an event links, with and without a German translation. */
interface Linkables {
  music: number;
  musik: number;
  swing: number;
  outdoor: number;
  draussen: number;
  night: number;
  hall: number;
  halle: number;
  barn: number;
  club: number;
  verein: number;
  band: number;
}

describe.each(PROVIDERS)("languages: events link records of their own language (%s)", (provider) => {
  const server = useTestServer(provider);
  const linked = {} as Linkables;
  let germanEvent: RouterOutputs["events"]["create"];

  beforeAll(async () => {
    const en = writerOf(server, DEFAULT_SELECTOR);
    const de = writerOf(server, GERMAN);
    const pair = async (resource: Resource, english: Record<string, unknown>, german: Record<string, unknown>) => {
      const original = await en.create(resource, english);
      return [original.id, (await de.create(resource, { ...german, translation_of: original.id })).id] as const;
    };
    [linked.music, linked.musik] = await pair("categories", { name: "Music" }, { name: "Musik" });
    [linked.outdoor, linked.draussen] = await pair("tags", { name: "Outdoor" }, { name: "Draußen" });
    [linked.hall, linked.halle] = await pair("venues", { venue: "Hall" }, { venue: "Halle" });
    [linked.club, linked.verein] = await pair("organizers", { organizer: "Club" }, { organizer: "Verein" });
    linked.swing = (await en.create("categories", { name: "Swing" })).id;
    linked.night = (await en.create("tags", { name: "Night" })).id;
    linked.barn = (await en.create("venues", { venue: "Barn" })).id;
    linked.band = (await en.create("organizers", { organizer: "Band" })).id;
    await en.create("events", {
      title: "Harvest fair",
      start_date: daysAhead(4),
      end_date: daysAhead(4, 12),
      categories: [linked.music],
      tags: [linked.outdoor],
      venue: linked.hall,
      organizer: [linked.club],
    });
    germanEvent = await de.create("events", {
      title: "Sommerfest",
      start_date: daysAhead(5),
      end_date: daysAhead(5, 12),
      categories: [linked.music, linked.swing],
      tags: [linked.outdoor, linked.night],
      venue: [{ id: linked.hall }, linked.barn],
      organizer: [linked.club, linked.band],
    });
  });

  /** The ids and languages of what an event links. */
  function linksOf(event: Pick<RouterOutputs["events"]["create"], "categories" | "tags" | "venue" | "organizer">) {
    const venues = Array.isArray(event.venue) ? event.venue : [event.venue];
    const pairs = (items: ReadonlyArray<{ id: number; language: Language }>) =>
      items.map((item) => [item.id, item.language]);
    return {
      categories: pairs(event.categories),
      tags: pairs(event.tags),
      venue: pairs(venues),
      organizer: pairs(event.organizer),
    };
  }

  it("links the German translations of English records given to a German event, else the records given", () => {
    expect(germanEvent.language).toBe("de");
    expect(linksOf(germanEvent)).toEqual({
      categories: [
        [linked.musik, "de"],
        [linked.swing, "en"],
      ],
      tags: [
        [linked.draussen, "de"],
        [linked.night, "en"],
      ],
      venue: [
        [linked.halle, "de"],
        [linked.barn, "en"],
      ],
      organizer: [
        [linked.verein, "de"],
        [linked.band, "en"],
      ],
    });
  });

  it("counts, hide_empty and has_events count only the events of the list's language", async () => {
    const english = readerOf(server, DEFAULT_SELECTOR);
    // Swing, Night, Barn and Band are English, but only the German event links them.
    const count = async (resource: "categories" | "tags", id: number) => (await english.get(resource, id)).count;
    expect([await count("categories", linked.music), await count("categories", linked.swing)]).toEqual([1, 0]);
    expect([await count("categories", linked.musik), await count("tags", linked.night)]).toEqual([1, 0]);
    expect(ids((await english.list("categories")).categories)).toEqual([linked.music]);
    expect(ids((await english.list("categories", { hide_empty: false })).categories)).toEqual([
      linked.music,
      linked.swing,
    ]);
    expect(ids((await english.list("tags")).tags)).toEqual([linked.outdoor]);
    expect(ids((await english.list("venues", { has_events: true })).venues)).toEqual([linked.hall]);
    expect(ids((await english.list("venues", { has_events: false })).venues)).toEqual([linked.barn]);
    expect(ids((await english.list("venues", { only_with_upcoming: true })).venues)).toEqual([linked.hall]);
    expect(ids((await english.list("organizers", { has_events: true })).organizers)).toEqual([linked.club]);
    const german = readerOf(server, GERMAN);
    expect(ids((await german.list("venues", { has_events: true })).venues)).toEqual([linked.halle]);
    expect(ids((await german.list("organizers", { has_events: true })).organizers)).toEqual([linked.verein]);
  });

  it("maps the same way over tRPC, and for names, which are looked up in the event's language", async () => {
    const created = await server.client(server.users.editor).events.create.mutate({
      title: "Herbstfest",
      start_date: daysAhead(6),
      end_date: daysAhead(6, 12),
      categories: ["Musik", linked.swing],
      tags: [linked.outdoor],
      venue: linked.hall,
      organizer: [{ id: linked.club }],
      ml_language: "de",
    });
    expect(linksOf(created)).toEqual({
      categories: [
        [linked.musik, "de"],
        [linked.swing, "en"],
      ],
      tags: [[linked.draussen, "de"]],
      venue: [[linked.halle, "de"]],
      organizer: [[linked.verein, "de"]],
    });
  });

  it("links in the event's own language on update, whatever the request's language", async () => {
    const english = await writerOf(server, DEFAULT_SELECTOR).create("events", {
      title: "Harvest",
      start_date: daysAhead(7),
      end_date: daysAhead(7, 12),
    });
    const updated = await writerOf(server, GERMAN).update("events", english.id, {
      categories: [linked.musik, "Jazz"],
      tags: [linked.draussen],
      venue: linked.halle,
      organizer: [linked.verein, { organizer: "Neue Band" }],
    });
    expect(updated.language).toBe("en");
    const links = linksOf(updated);
    const jazz = found(updated.categories.find((term) => term.name === "Jazz"));
    const newBand = found(updated.organizer.find((organizer) => organizer.organizer === "Neue Band"));
    expect(links).toEqual({
      categories: [
        [jazz.id, "en"],
        [linked.music, "en"],
      ],
      tags: [[linked.outdoor, "en"]],
      venue: [[linked.hall, "en"]],
      organizer: [
        [linked.club, "en"],
        [newBand.id, "en"],
      ],
    });
    expect(await server.db.category.findUnique({ where: { id: jazz.id }, select: { language: true } })).toEqual({
      language: "en",
    });
  });
});

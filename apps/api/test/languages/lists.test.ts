import type { Language } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { invalidParam } from "../support/errors.ts";
import { first, single } from "../support/narrow.ts";
import { useTestServer } from "../support/server.ts";
import {
  type Answer,
  DEFAULT_SELECTOR,
  daysAhead,
  ids,
  itemsOf,
  LANGUAGES,
  otherThan,
  outcomes,
  type Query,
  type Resource,
  readerOf,
  SELECTORS,
  type Selector,
  selectorsOf,
  writerOf,
} from "./support.ts";

/** The records every language gets, under the same names (so the same slugs) in each. */
interface Seeded {
  festival: number;
  jazz: number;
  blues: number;
  outdoor: number;
  hall: number;
  cellar: number;
  club: number;
}

/** Each language is written through another way of selecting it. */
const WRITERS: Record<Language, Selector> = {
  en: DEFAULT_SELECTOR,
  de: selectorsOf("de")[0] as Selector,
  fr: selectorsOf("fr")[1] as Selector,
  "zh-hans": selectorsOf("zh-hans")[2] as Selector,
};

describe.each(PROVIDERS)("languages: lists, counts, filters and slugs (%s)", (provider) => {
  const server = useTestServer(provider);
  const seeded = {} as Record<Language, Seeded>;
  const slugs = {} as Record<Language, string[]>;
  const languagesOfCreated = {} as Record<Language, string[]>;
  let englishOnlyEvent = 0;

  beforeAll(async () => {
    for (const language of LANGUAGES) {
      const write = writerOf(server, WRITERS[language]);
      const jazz = await write.create("categories", { name: "Jazz" });
      const blues = await write.create("categories", { name: "Blues" });
      const outdoor = await write.create("tags", { name: "Outdoor" });
      const hall = await write.create("venues", { venue: "Hall", city: "Lyon" });
      const cellar = await write.create("venues", { venue: "Cellar" });
      const club = await write.create("organizers", { organizer: "Club" });
      const festival = await write.create("events", {
        title: "Festival",
        start_date: daysAhead(10),
        end_date: daysAhead(10, 12),
        categories: [jazz.id],
        tags: [outdoor.id],
        venue: hall.id,
        organizer: [club.id],
      });
      const created = [jazz, blues, outdoor, hall, cellar, club, festival];
      seeded[language] = {
        festival: festival.id,
        jazz: jazz.id,
        blues: blues.id,
        outdoor: outdoor.id,
        hall: hall.id,
        cellar: cellar.id,
        club: club.id,
      };
      slugs[language] = created.map((record) => record.slug);
      languagesOfCreated[language] = created.map((record) => record.language);
    }
    englishOnlyEvent = (
      await writerOf(server, DEFAULT_SELECTOR).create("events", {
        title: "Only English",
        start_date: "2020-01-01 10:00:00",
        end_date: "2020-01-01 12:00:00",
      })
    ).id;
  });

  it("creates each record in the language of its prefix or parameter (which wins), reusing the slugs", () => {
    for (const language of LANGUAGES) {
      expect({ language, created: languagesOfCreated[language] }).toEqual({
        language,
        created: Array(7).fill(language),
      });
      expect(slugs[language]).toEqual(["jazz", "blues", "outdoor", "hall", "cellar", "club", "festival"]);
    }
    const festivals = LANGUAGES.map((language) => seeded[language].festival);
    expect(new Set(festivals).size).toBe(LANGUAGES.length);
  });

  it.each(SELECTORS)(
    "lists, counts, hide_empty and has_events see only the selected language: $label",
    async (selector) => {
      const read = readerOf(server, selector);
      const mine = seeded[selector.language];
      const language = selector.language;
      const terms = (items: ReadonlyArray<{ id: number; count: number; language: Language }>) =>
        items.map((term) => [term.id, term.count, term.language]);
      const page = (resource: Resource) => (body: Answer<Resource, "list">) => ({
        ids: ids(itemsOf(resource, body)),
        total: body.total,
      });

      expect(
        await outcomes({
          events: read.list("events").then((body) => ({
            ids: ids(body.events),
            total: body.total,
            total_pages: body.total_pages,
            languages: body.events.map((event: { language: string }) => event.language),
          })),
          "an event's terms, venue and organizer": read
            .list("events")
            .then(({ events }) => first(events))
            .then((festival) => ({
              categories: terms(festival.categories),
              tags: terms(festival.tags),
              venue: [single(festival.venue).id, single(festival.venue).language],
              organizer: festival.organizer.map((organizer) => [organizer.id, organizer.language]),
            })),
          categories: read.list("categories").then((body) => terms(body.categories)),
          "categories, hide_empty=false": read.list("categories", { hide_empty: false }).then(page("categories")),
          tags: read.list("tags").then((body) => terms(body.tags)),
          venues: read.list("venues").then(page("venues")),
          "venues, has_events": read.list("venues", { has_events: true }).then(page("venues")),
          "venues, has_events=false": read.list("venues", { has_events: false }).then(page("venues")),
          "venues, only_with_upcoming": read.list("venues", { only_with_upcoming: true }).then(page("venues")),
          organizers: read.list("organizers").then(page("organizers")),
          "organizers, has_events=false": read.list("organizers", { has_events: false }).then(page("organizers")),
        }),
      ).toEqual({
        events: { ids: [mine.festival], total: 1, total_pages: 1, languages: [language] },
        "an event's terms, venue and organizer": {
          categories: [[mine.jazz, 1, language]],
          tags: [[mine.outdoor, 1, language]],
          venue: [mine.hall, language],
          organizer: [[mine.club, language]],
        },
        categories: [[mine.jazz, 1, language]],
        "categories, hide_empty=false": { ids: [mine.blues, mine.jazz], total: 2 },
        tags: [[mine.outdoor, 1, language]],
        venues: { ids: [mine.cellar, mine.hall], total: 2 },
        "venues, has_events": { ids: [mine.hall], total: 1 },
        "venues, has_events=false": { ids: [mine.cellar], total: 1 },
        "venues, only_with_upcoming": { ids: [mine.hall], total: 1 },
        organizers: { ids: [mine.club], total: 1 },
        "organizers, has_events=false": { ids: [], total: 0 },
      });
    },
  );

  it.each(SELECTORS)("search and every filter find only the selected language's records: $label", async (selector) => {
    const read = readerOf(server, selector);
    const mine = seeded[selector.language];
    const foreign = seeded[otherThan(selector.language)];
    const found = (resource: Resource, query: Query) =>
      read.list(resource, query).then((body) => ids(itemsOf(resource, body)));

    expect(
      await outcomes({
        "events, search": found("events", { search: "festival" }),
        "events, category slug": found("events", { categories: ["jazz"] }),
        "events, category id": found("events", { categories: [mine.jazz] }),
        "events, tag slug": found("events", { tags: ["outdoor"] }),
        "events, venue": found("events", { venue: [mine.hall] }),
        "events, organizer": found("events", { organizer: [mine.club] }),
        // The other language's records exist, but no event of this language is linked to them.
        "events, the other language's category": found("events", { categories: [foreign.jazz] }),
        "events, the other language's venue": found("events", { venue: [foreign.hall] }),
        "events, include": found("events", { include: [foreign.festival, mine.festival] }),
        "venues, search": found("venues", { search: "hall" }),
        "venues, event": found("venues", { event: mine.festival }),
        "venues, the other language's event": found("venues", { event: foreign.festival }),
        "organizers, search": found("organizers", { search: "club" }),
        "categories, search": found("categories", { search: "jaz", hide_empty: false }),
        "categories, slug": found("categories", { slug: "jazz" }),
        "categories, event": found("categories", { event: mine.festival }),
        "tags, search": found("tags", { search: "out" }),
      }),
    ).toEqual({
      "events, search": [mine.festival],
      "events, category slug": [mine.festival],
      "events, category id": [mine.festival],
      "events, tag slug": [mine.festival],
      "events, venue": [mine.festival],
      "events, organizer": [mine.festival],
      "events, the other language's category": [],
      "events, the other language's venue": [],
      "events, include": [mine.festival],
      "venues, search": [mine.hall],
      "venues, event": [mine.hall],
      "venues, the other language's event": [],
      "organizers, search": [mine.club],
      "categories, search": [mine.jazz],
      "categories, slug": [mine.jazz],
      "categories, event": [mine.jazz],
      "tags, search": [mine.outdoor],
    });
  });

  it.each(SELECTORS)("resolves slugs within the selected language and ids in any: $label", async (selector) => {
    const read = readerOf(server, selector);
    const mine = seeded[selector.language];
    const other = otherThan(selector.language);
    const foreign = seeded[other];
    const idAndLanguage = ({ id, language }: { id: number; language: string }) => ({ id, language });
    const bySlug = (resource: "events" | "venues" | "organizers", slug: string) =>
      read.getBySlug(resource, slug).then(idAndLanguage);
    const byId = (resource: Resource, id: number) => read.get(resource, id).then(idAndLanguage);
    const own = (id: number) => ({ id, language: selector.language });
    const theirs = (id: number) => ({ id, language: other });

    expect(
      await outcomes({
        "event by slug": bySlug("events", "festival"),
        "venue by slug": bySlug("venues", "hall"),
        "organizer by slug": bySlug("organizers", "club"),
        "event by id": byId("events", foreign.festival),
        "venue by id": byId("venues", foreign.hall),
        "organizer by id": byId("organizers", foreign.club),
        "category by id": byId("categories", foreign.jazz),
        "tag by id": byId("tags", foreign.outdoor),
        "a slug only English has":
          selector.language === "en"
            ? bySlug("events", "only-english")
            : read.getBySlugFailure("events", "only-english"),
      }),
    ).toEqual({
      "event by slug": own(mine.festival),
      "venue by slug": own(mine.hall),
      "organizer by slug": own(mine.club),
      "event by id": theirs(foreign.festival),
      "venue by id": theirs(foreign.hall),
      "organizer by id": theirs(foreign.club),
      "category by id": theirs(foreign.jazz),
      "tag by id": theirs(foreign.outdoor),
      "a slug only English has":
        selector.language === "en"
          ? { id: englishOnlyEvent, language: "en" }
          : invalidParam("slug", 'No event has the slug "only-english" in this language.'),
    });
  });
});

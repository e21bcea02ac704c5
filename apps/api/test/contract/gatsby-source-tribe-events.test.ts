/**
 * Contract: erinoerin/gatsby-source-tribe-events, commit 72bdd96e738ce3ab287e8aca00e54bba887b1bb0 (gatsby-node.js),
 * read and replayed by us. The source asks `<baseUrl>/wp-json/tribe/events/v1/<list>` with `per_page` (events at
 * `maxEvents`, 10 by default; venues, organizers, categories and tags at 50), one request per list and no paging,
 * and makes a node of each item of `events`, `venues`, `organizers`, `categories` and `tags`, keyed by its `id`.
 */
import type { RouterOutputs } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { CLIENT_ROOTS, type EventDetail, getJson, seedUpcomingEvents } from "./support.ts";

const MAX_EVENTS = 10;

type Lists = {
  events: RouterOutputs["events"]["list"];
  venues: RouterOutputs["venues"]["list"];
  organizers: RouterOutputs["organizers"]["list"];
  categories: RouterOutputs["categories"]["list"];
  tags: RouterOutputs["tags"]["list"];
};

describe.each(PROVIDERS)("gatsby-source-tribe-events's requests (%s)", (provider) => {
  const server = useTestServer(provider);
  let seeded: EventDetail[] = [];
  beforeAll(async () => {
    seeded = await seedUpcomingEvents(server, 4);
  });

  describe.each(CLIENT_ROOTS)("under %s", (root) => {
    it("reads the five lists, each with per_page, and finds every item with its id", async () => {
      const list = <K extends keyof Lists>(name: K, perPage: number) =>
        getJson<Lists[K]>(`${server.origin}${root}/${name}?per_page=${perPage}`);
      const events = (await list("events", MAX_EVENTS)).events;
      const venues = (await list("venues", 50)).venues;
      const organizers = (await list("organizers", 50)).organizers;
      const categories = (await list("categories", 50)).categories;
      const tags = (await list("tags", 50)).tags;

      expect(events.map(({ id, title }) => ({ id, title }))).toEqual(seeded.map(({ id, title }) => ({ id, title })));
      expect(venues.map(({ venue }) => venue).sort()).toEqual(["Hall 1", "Hall 2", "Hall 3", "Hall 4"]);
      expect(organizers.map(({ organizer }) => organizer).sort()).toEqual([
        "Society 1",
        "Society 2",
        "Society 3",
        "Society 4",
      ]);
      expect(categories.map(({ name }) => name).sort()).toEqual(["Genre 1", "Genre 2", "Genre 3", "Genre 4"]);
      expect(tags.map(({ name }) => name).sort()).toEqual(["tag-1", "tag-2", "tag-3", "tag-4"]);
      for (const item of [...events, ...venues, ...organizers, ...categories, ...tags]) {
        expect(Number.isInteger(item.id)).toBe(true);
      }
    });
  });
});

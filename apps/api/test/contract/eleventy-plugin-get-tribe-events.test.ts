/**
 * Contract: forkriver/eleventy-plugin-get-tribe-events, commit b34b32f0d553c510a1b5e2ab85400e9660e4f5ce
 * (plugins/get-tribe-events/plugin.js), read and replayed by us. The plugin asks for `<baseURL><eventPath>` with its
 * own query string (`per_page=<itemsPerRequest>&`, a trailing `&` included), then follows `next_rest_url` for as
 * long as an answer has one, collecting `events`; its feed template reads each event's `id`, `title`, `url`,
 * `start_date` and `end_date`. Its `eventPath` defaults to WordPress's path; `itemsPerRequest` is an option (50 by
 * default), small here so that paging happens.
 */
import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { CLIENT_ROOTS, type EventDetail, type EventList, getJson, seedUpcomingEvents } from "./support.ts";

const ITEMS_PER_REQUEST = 3;

describe.each(PROVIDERS)("eleventy-plugin-get-tribe-events's requests (%s)", (provider) => {
  const server = useTestServer(provider);
  let seeded: EventDetail[] = [];
  beforeAll(async () => {
    seeded = await seedUpcomingEvents(server, 7);
  });

  describe.each(CLIENT_ROOTS)("under %s", (root) => {
    it("collects every upcoming event by following next_rest_url, each link on the root it started from", async () => {
      const eventsUrl = `${server.origin}${root}/events`;
      const requested: string[] = [];
      const collected: EventList["events"] = [];
      let page = await getJson<EventList>(`${eventsUrl}?per_page=${ITEMS_PER_REQUEST}&`);
      requested.push(`${eventsUrl}?per_page=${ITEMS_PER_REQUEST}&`);
      collected.push(...page.events);
      while (page.next_rest_url) {
        requested.push(page.next_rest_url);
        page = await getJson<EventList>(page.next_rest_url);
        collected.push(...page.events);
      }

      expect(requested).toHaveLength(3);
      for (const url of requested) {
        const { origin, pathname } = new URL(url);
        expect(`${origin}${pathname.replace(/\/$/, "")}`).toBe(eventsUrl);
      }
      expect(
        collected.map(({ id, title, url, start_date, end_date }) => ({ id, title, url, start_date, end_date })),
      ).toEqual(seeded.map(({ id, title, url, start_date, end_date }) => ({ id, title, url, start_date, end_date })));
      for (const event of collected) expect(event.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/event\/concert-\d\/$/);
    });
  });
});

/**
 * Contract: dsundt/northwoods-events, commit acf0bf7efc7bd7ef3acbe14b8a28acb7e3d04071 (src/tec_rest.py), read and
 * replayed by us. The aggregator derives `<site>/wp-json/tribe/events/v1/events` from a page's URL, asks with
 * `Accept: application/json` for `page`, `per_page=100` and `start_date`/`end_date` as ISO 8601 in UTC ending in
 * `Z` (now and twelve 30-day months ahead), reads each event's `title`, `website` or `url`, `start_date`,
 * `end_date` and its venue (`venues` or `venue`: `venue`, `city`, `region`, `country`), and asks for the next page
 * until `page * per_page` reaches `total` (50 pages at most).
 */
import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import {
  CLIENT_ROOTS,
  type EventDetail,
  type EventList,
  getJson,
  seedUpcomingEvents,
  wallTimeInDays,
} from "./support.ts";

const PER_PAGE = 100;

/** The aggregator's dates: ISO 8601 to the second, `Z` for UTC. */
function isoZ(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

type Venue = { venue?: string; city?: string; region?: string; country?: string };

function venueText(event: EventList["events"][number]): string {
  const venue: Venue | undefined = Array.isArray(event.venue) ? event.venue[0] : event.venue;
  return [venue?.venue, venue?.city, venue?.region, venue?.country].filter(Boolean).join(", ");
}

describe.each(PROVIDERS)("northwoods-events's requests (%s)", (provider) => {
  const server = useTestServer(provider);
  let seeded: EventDetail[] = [];
  beforeAll(async () => {
    await server.call("POST /events", {
      as: server.users.administrator,
      status: 201,
      body: { title: "Last week's market", start_date: wallTimeInDays(-7, 9), end_date: wallTimeInDays(-7, 12) },
    });
    seeded = await seedUpcomingEvents(server, 5);
  });

  describe.each(CLIENT_ROOTS)("under %s", (root) => {
    it("reads the events between two ISO dates in Z, paging on total", async () => {
      const now = new Date();
      const params = {
        page: 1,
        per_page: PER_PAGE,
        start_date: isoZ(now),
        end_date: isoZ(new Date(now.getTime() + 360 * 86_400_000)),
      };
      const rows: Array<{ title: string; url: string; venue_text: string; iso_datetime: string; iso_end: string }> = [];
      let requests = 0;
      for (;;) {
        const query = new URLSearchParams({ ...params, page: String(params.page), per_page: String(params.per_page) });
        const data = await getJson<EventList>(`${server.origin}${root}/events?${query}`, {
          "user-agent": "northwoods-events/1.0 (+github-actions)",
        });
        requests += 1;
        for (const event of data.events) {
          rows.push({
            title: event.title.trim(),
            url: (event.website || event.url).trim(),
            venue_text: venueText(event),
            iso_datetime: event.start_date,
            iso_end: event.end_date,
          });
        }
        if (params.page * params.per_page >= data.total || params.page >= 50) break;
        params.page += 1;
      }

      expect(requests).toBe(1);
      expect(rows).toEqual(
        seeded.map((event, index) => ({
          title: `Concert ${index + 1}`,
          url: event.url,
          venue_text: `Hall ${index + 1}, Trento, Italy`,
          iso_datetime: event.start_date,
          iso_end: event.end_date,
        })),
      );
    });
  });
});

/**
 * Contract: ESIPFed/Collaboration-Area-Event-Series, commit 583f93ea0446e2515f2d311f106a67ab47824c31
 * (scripts/create_events.py), read and replayed by us. The script POSTs to `<wordpress_url>/wp-json/tribe/events/v1/events`
 * with HTTP Basic auth (a user name and an application password), a JSON body of `title`, `description`, `status`,
 * `start_date`/`end_date` as `YYYY-MM-DD HH:MM:SS`, `all_day`, `timezone`, and, when configured, `venue` as
 * `{"venue": <name>}`, `organizer` as `{"organizer": <name>}` and `categories` as a list of names; it takes 200 or
 * 201 as success and reads the new event's `id`.
 */
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { CLIENT_ROOTS, type EventDetail } from "./support.ts";

describe.each(PROVIDERS)("Collaboration-Area-Event-Series's create_events.py requests (%s)", (provider) => {
  const server = useTestServer(provider);

  describe.each(CLIENT_ROOTS)("under %s", (root) => {
    it("creates a draft event with nested venue and organizer objects, category names and a time zone", async () => {
      const { login, token } = server.users.editor;
      const title = `Data Stewardship Telecon (${root})`;
      const response = await fetch(`${server.origin}${root}/events`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${login}:${token}`).toString("base64")}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          title,
          description: "Monthly call of the collaboration area.",
          status: "draft",
          start_date: "2031-03-04 14:00:00",
          end_date: "2031-03-04 15:00:00",
          all_day: false,
          timezone: "America/New_York",
          venue: { venue: "Virtual" },
          organizer: { organizer: "ESIP Data Stewardship Committee" },
          categories: ["Data Stewardship", "Telecon"],
        }),
      });
      expect([200, 201]).toContain(response.status);
      const { id } = (await response.json()) as EventDetail;

      const { body } = await server.call("GET /events/{id}", { params: { id }, as: server.users.editor });
      expect({
        title: body.title,
        status: body.status,
        start_date: body.start_date,
        utc_start_date: body.utc_start_date,
        timezone: body.timezone,
        all_day: body.all_day,
        venue: Array.isArray(body.venue) ? body.venue.map(({ venue }) => venue) : [body.venue.venue],
        organizer: body.organizer.map(({ organizer }) => organizer),
        categories: body.categories.map(({ name }) => name).sort(),
      }).toEqual({
        title,
        status: "draft",
        start_date: "2031-03-04 14:00:00",
        utc_start_date: "2031-03-04 19:00:00",
        timezone: "America/New_York",
        all_day: false,
        venue: ["Virtual"],
        organizer: ["ESIP Data Stewardship Committee"],
        categories: ["Data Stewardship", "Telecon"],
      });
    });
  });
});

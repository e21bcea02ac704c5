import type { RouterOutputs } from "@calendar/core";
import { create, PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { expectNoStall } from "../support/stall.ts";

const API = "/cal/events/v1";
const MIB = 1024 * 1024;
const EVENTS = 50;
/**
 * What this page of 50 events may weigh: each event's description and excerpt, and the venue's description, at
 * 4,096 characters, and the rest of the fields (it weighed 70 MB).
 */
const MAX_PAGE_BYTES = MIB;
const PARALLEL = 16;
/** The events that show the venue, whose description is 1 MiB too. */
const VENUE_LINKS = 5;
/** What a list shows of each description and excerpt (`LIST_TEXT_MAX_CHARACTERS` of the core). */
const LIST_TEXT_MAX_CHARACTERS = 4_096;

type EventList = RouterOutputs["events"]["list"];

describe.each(PROVIDERS)("an event list of events with 1 MiB descriptions (%s)", (provider) => {
  const server = useTestServer(provider);

  it("is bounded in bytes and blocks no one, with the totals kept; single reads stay whole", async () => {
    const description = `<p>${"Programme notes &amp; more. ".repeat(MIB / 28)}</p>`;
    const excerpt = "e".repeat(MIB / 4);
    const venue = await create.venue(server.db, { name: "Big Hall", description });
    for (let index = 0; index < EVENTS; index++) {
      const event = await create.event(server.db, { title: `Big ${index}`, description, excerpt });
      if (index < VENUE_LINKS) {
        await server.db.eventVenue.create({ data: { eventId: event.id, venueId: venue.id, position: 0 } });
      }
    }
    const path = `${API}/events?start_date=2030-01-01&end_date=2030-01-02&per_page=50`;

    const { answer: page } = await expectNoStall(server.origin, () => server.rest<EventList>("GET", path));
    // 16 at once, as the review sent them (26 s and 2 GB before): each answer is as bounded as the one above.
    const pages = [
      page,
      ...(await Promise.all(Array.from({ length: PARALLEL }, () => server.rest<EventList>("GET", path)))),
    ];
    for (const answer of pages) {
      expect(answer.status).toBe(200);
      expect(Buffer.byteLength(answer.text)).toBeLessThan(MAX_PAGE_BYTES);
      expect([answer.headers.get("x-wp-total"), answer.headers.get("x-wp-totalpages")]).toEqual(["50", "1"]);
      expect(answer.body.events).toHaveLength(EVENTS);
    }
    const [listed] = page.body.events;
    const shown = listed?.description ?? "";
    expect(shown.endsWith("…")).toBe(true);
    expect(description.startsWith(shown.slice(0, -1))).toBe(true);
    expect(Array.from(shown.slice(0, -1)).length).toBeLessThanOrEqual(LIST_TEXT_MAX_CHARACTERS);
    expect(listed?.excerpt).toBe(`${"e".repeat(LIST_TEXT_MAX_CHARACTERS)}…`);
    const venueShown = JSON.stringify(listed?.venue);
    expect([venueShown.includes("Big Hall"), venueShown.includes("…")]).toEqual([true, true]);
    expect(venueShown.length).toBeLessThan(2 * LIST_TEXT_MAX_CHARACTERS);

    const single = await server.call("GET /events/{id}", { params: { id: listed?.id ?? 0 } });
    expect([single.body.description, single.body.excerpt]).toEqual([description, excerpt]);
    const rpc = await server.client().events.get.query({ id: listed?.id ?? 0 });
    expect(rpc.description).toBe(description);
  }, 120_000);

  it.each([
    ["venues", "venue"],
    ["organizers", "organizer"],
  ] as const)(
    "lists %s with 1 MiB descriptions bounded in bytes, without blocking; single reads stay whole",
    async (plural, kind) => {
      const description = `<p>${"Directions &amp; access. ".repeat(MIB / 25)}</p>`;
      const excerpt = "x".repeat(MIB / 4);
      const ids: number[] = [];
      for (let index = 0; index < EVENTS; index++) {
        const record = await create[kind](server.db, { name: `Big ${kind} ${index}`, description, excerpt });
        ids.push(record.id);
      }
      const { answer } = await expectNoStall(server.origin, () =>
        server.rest<{ [key: string]: Array<{ id: number; description: string; excerpt: string }> }>(
          "GET",
          `${API}/${plural}?per_page=50`,
        ),
      );
      expect(answer.status).toBe(200);
      expect(Buffer.byteLength(answer.text)).toBeLessThan(MAX_PAGE_BYTES);
      const listed = answer.body[plural] ?? [];
      expect(listed).toHaveLength(EVENTS);
      for (const record of listed) {
        expect(record.description.endsWith("…")).toBe(true);
        expect(description.startsWith(record.description.slice(0, -1))).toBe(true);
        expect(record.excerpt).toBe(`${"x".repeat(LIST_TEXT_MAX_CHARACTERS)}…`);
      }
      const single = await server.rest<{ description: string; excerpt: string }>("GET", `${API}/${plural}/${ids[0]}`);
      expect([single.status, single.body.description, single.body.excerpt]).toEqual([200, description, excerpt]);
    },
    120_000,
  );
});

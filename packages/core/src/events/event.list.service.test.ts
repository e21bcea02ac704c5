import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import type { Scope } from "../scope.ts";
import { create, createTestActor, PROVIDERS, testScope, useTestDatabase } from "../testing/index.ts";
import { createEventsInBulk } from "./event.bulk-create.service.ts";
import { listEvents } from "./event.list.service.ts";
import type { EventOutput } from "./event.output.schemas.ts";
import { eventListQuery } from "./event.schemas.ts";

/** More than SQLite's old limit of 999 bound values, which Prisma assumed before the adapter reported the real one. */
const NEAR_EVENTS = 1_200;

/** The name of an event's only venue. */
function venueName(event: EventOutput): string {
  return event.venue && !Array.isArray(event.venue) ? event.venue.venue : "not one venue";
}

/** The runs of equal neighbours in `values`, each as the value and its length. */
function runsOf(values: readonly string[]): Array<[string, number]> {
  const runs: Array<[string, number]> = [];
  for (const value of values) {
    const last = runs.at(-1);
    if (last?.[0] === value) last[1] += 1;
    else runs.push([value, 1]);
  }
  return runs;
}

describe.each(PROVIDERS)("listEvents near a point (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let db: Db;
  let scope: Scope;

  beforeAll(async () => {
    db = database.current.handle.db;
    scope = testScope(database.current, await createTestActor(db, "geo-editor", "editor"));
    const place = (name: string, geoLat: number, geoLng: number) => create.venue(db, { name, geoLat, geoLng });
    // Two venues within the radius at different distances from the point, a third outside it.
    const nearer = await place("Konzerthaus", 52.5135, 13.3922);
    const near = await place("Philharmonie", 52.51, 13.37);
    const far = await place("Gewandhaus", 51.34, 12.38);
    const day = (index: number) => `2031-03-${String((index % 28) + 1).padStart(2, "0")} 19:00:00`;
    // Every day has events at both near venues, created farther first in every other round of 28, so that only
    // ordering by distance puts the nearer venue first within a start time.
    const nearVenue = (index: number) => (Math.floor(index / 28) % 2 === 0 ? near.id : nearer.id);
    await createEventsInBulk(
      scope,
      Array.from({ length: NEAR_EVENTS + 30 }, (_, index) => ({
        title: `Concert ${index}`,
        start_date: day(index),
        end_date: day(index).replace("19:", "21:"),
        venue: [index < NEAR_EVENTS ? nearVenue(index) : far.id],
      })),
    );
  });

  it("counts and pages every event at a venue within the radius, nearest first within a start time", async () => {
    const query = eventListQuery.parse({
      geoloc_lat: 52.52,
      geoloc_lng: 13.4,
      geoloc_radius: 10,
      start_date: "2031-03-01",
      end_date: "2031-03-31",
      per_page: 50,
      page: 3,
    });
    const list = await listEvents(scope, query);
    expect(list.total).toBe(NEAR_EVENTS);
    expect(list.events).toHaveLength(50);
    // Events 101 to 150. March 1 and 2 hold the first 86 (43 each: 1,200 events over 28 days); March 3 holds 21 at
    // the Konzerthaus, the nearer venue, then 22 at the Philharmonie, so the page starts with the last 7 of those 21;
    // March 4 begins with its own 21 at the Konzerthaus.
    expect(runsOf(list.events.map((event) => `${event.start_date} at ${venueName(event)}`))).toEqual([
      ["2031-03-03 19:00:00 at Konzerthaus", 7],
      ["2031-03-03 19:00:00 at Philharmonie", 22],
      ["2031-03-04 19:00:00 at Konzerthaus", 21],
    ]);
  });
});

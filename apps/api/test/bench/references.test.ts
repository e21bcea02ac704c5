import { PROVIDERS } from "@calendar/core/testing";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFloorServer } from "../../bench/floor.app.ts";
import { buildLimitServer } from "../../bench/limit.app.ts";
import { type LimitDriver, limitDriver } from "../../bench/limit.driver.ts";
import { eventsOf } from "../events/support.ts";
import { parseCalendar, veventsOf } from "../ical/ical.support.ts";
import { useTestServer } from "../support/server.ts";

/**
 * The benchmark's references answer every read scenario's request with 200 and a real body: a reference that
 * fails (a 500 counted as a request per second) makes every ratio against it meaningless.
 */

const API = "/cal/events/v1";

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** What the checks read of a JSON answer. */
interface Answer {
  id?: number;
  events?: unknown[];
  venues?: unknown[];
  categories?: unknown[];
}

function summaries(text: string): string[] {
  return veventsOf(parseCalendar(text)).map((event) => String(event.getFirstPropertyValue("summary")));
}

describe.each(PROVIDERS)("the benchmark's limit and floor (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  let driver: LimitDriver;
  const references: Record<"limit" | "floor", FastifyInstance | undefined> = { limit: undefined, floor: undefined };
  let id = 0;
  let slug = "";

  beforeAll(async () => {
    const concert = await events.create({
      title: "Harbour concert",
      description: "<p>Jazz <b>on the water</b></p>",
      start_date: `${day(3)} 19:00:00`,
      end_date: `${day(3)} 21:00:00`,
      timezone: "Europe/Berlin",
      categories: ["Music"],
      tags: ["outdoor"],
      venue: { venue: "Harbour stage", address: "Kai 1", city: "Hamburg", geo_lat: 53.54, geo_lng: 9.98 },
      organizer: { organizer: "Harbour friends", email: "friends@example.org" },
      image: "https://example.org/harbour.jpg",
    });
    await events.create({ title: "Market", all_day: true, start_date: day(5), end_date: day(6) });
    await events.create({ title: "Talk", start_date: `${day(8)} 10:00:00`, end_date: `${day(8)} 11:00:00` });
    id = concert.id;
    slug = concert.slug;
    driver = limitDriver(server.database.url);
    references.limit = buildLimitServer(driver);
    references.floor = await buildFloorServer(server.database.handle, driver);
  });
  afterAll(async () => {
    await references.limit?.close();
    await references.floor?.close();
    await driver?.close();
  });

  const reads = () =>
    [
      [`${API}/events`, (body: Answer) => body.events?.length ?? 0],
      [`${API}/events?search=harbour`, (body: Answer) => body.events?.length ?? 0],
      [`${API}/events/${id}`, (body: Answer) => (body.id === id ? 1 : 0)],
      [`${API}/events/by-slug/${slug}`, (body: Answer) => (body.id === id ? 1 : 0)],
      [`${API}/venues?search=harbour`, (body: Answer) => body.venues?.length ?? 0],
      [`${API}/categories`, (body: Answer) => body.categories?.length ?? 0],
    ] as const;

  it.each(["limit", "floor"] as const)("the %s answers each JSON read with 200 and the records", async (name) => {
    for (const [url, count] of reads()) {
      const response = await references[name]?.inject({ method: "GET", url });
      expect([url, response?.statusCode]).toEqual([url, 200]);
      expect(count(JSON.parse(response?.body ?? "{}") as Answer), url).toBeGreaterThan(0);
    }
  });

  it.each(["limit", "floor"] as const)("the %s answers the feed with the API's events", async (name) => {
    const api = await server.rest("GET", `${API}/events.ics`);
    expect(api.status).toBe(200);
    expect(summaries(api.text)).toEqual(["Harbour concert", "Market", "Talk"]);
    const response = await references[name]?.inject({ method: "GET", url: `${API}/events.ics` });
    expect(response?.statusCode).toBe(200);
    expect(response?.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(summaries(response?.body ?? "")).toEqual(summaries(api.text));
  });
});

import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

/** The JSON-LD block of a page, parsed. */
function jsonLdOf(html: string): unknown {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  return match ? JSON.parse(match[1] ?? "") : undefined;
}

/** An occurrence's JSON-LD (docs/behaviour.md, "JSON-LD of an occurrence"). */
describe.each(PROVIDERS)("the JSON-LD of an occurrence (%s)", (provider) => {
  const server = useTestServer(provider);
  const as = () => server.users.administrator;
  const WIDE = { start_date: "2000-01-01", end_date: "2040-12-31" };

  async function createSeries(body: Record<string, unknown>) {
    const first = (await server.call("POST /events", { as: as(), status: 201, body })).body;
    const { body: list } = await server.call("GET /events/{id}/occurrences", {
      params: { id: first.id },
      query: WIDE,
      status: 200,
    });
    return { first, occurrences: list.events };
  }

  it("is an Event whose superEvent is the EventSeries with its schedule, on the API and the public page", async () => {
    const { first, occurrences } = await createSeries({
      title: "Yoga class",
      start_date: "2031-03-25 19:00:00",
      end_date: "2031-03-25 20:30:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4", "EXDATE;TZID=Europe/Berlin:20310408T190000"],
    });
    const second = occurrences[1];
    const { body: detail } = await server.call("GET /events/{id}", { params: { id: second?.id ?? 0 }, status: 200 });
    expect(detail.json_ld).toMatchObject({
      "@type": "Event",
      name: "Yoga class",
      url: `${server.origin}/event/yoga-class-2031-04-01/`,
      startDate: "2031-04-01T19:00:00+02:00",
      superEvent: {
        "@type": "EventSeries",
        name: "Yoga class",
        url: first.url,
        eventSchedule: {
          "@type": "Schedule",
          repeatFrequency: "P1W",
          byDay: ["https://schema.org/Tuesday"],
          startDate: "2031-03-25",
          startTime: "19:00:00",
          endTime: "20:30:00",
          scheduleTimezone: "Europe/Berlin",
          repeatCount: 4,
          exceptDate: ["2031-04-08T19:00:00+02:00"],
        },
      },
    });
    const page = await fetch(detail.url);
    expect(page.status).toBe(200);
    expect(jsonLdOf(await page.text())).toEqual(detail.json_ld);
  });

  it("says an all-day yearly series in dates, and gives a single event no superEvent", async () => {
    const { occurrences } = await createSeries({
      title: "Bastille Day",
      start_date: "2031-07-14",
      end_date: "2031-07-14",
      all_day: true,
      recurrence: ["RRULE:FREQ=YEARLY;COUNT=3"],
    });
    const last = occurrences.at(-1);
    const { body: detail } = await server.call("GET /events/{id}", { params: { id: last?.id ?? 0 }, status: 200 });
    expect(detail.json_ld.superEvent?.eventSchedule).toEqual({
      "@type": "Schedule",
      repeatFrequency: "P1Y",
      startDate: "2031-07-14",
      scheduleTimezone: "UTC",
      repeatCount: 3,
    });
    const single = (
      await server.call("POST /events", {
        as: as(),
        status: 201,
        body: { title: "Once", start_date: "2031-05-01 10:00:00", end_date: "2031-05-01 11:00:00" },
      })
    ).body;
    const { body: alone } = await server.call("GET /events/{id}", { params: { id: single.id }, status: 200 });
    expect(alone.json_ld).not.toHaveProperty("superEvent");
  });

  it("points the series at the occurrence itself when the reader may not see the first one", async () => {
    const { first, occurrences } = await createSeries({
      title: "Hidden start",
      start_date: "2031-09-01 10:00:00",
      end_date: "2031-09-01 11:00:00",
      recurrence: ["RRULE:FREQ=DAILY;COUNT=2"],
    });
    await server.call("POST /events/{id}", { as: as(), params: { id: first.id }, body: { status: "private" } });
    const second = occurrences[1];
    const { body: detail } = await server.call("GET /events/{id}", { params: { id: second?.id ?? 0 }, status: 200 });
    expect(detail.json_ld.superEvent?.url).toBe(detail.url);
    const { body: asAdmin } = await server.call("GET /events/{id}", {
      as: as(),
      params: { id: second?.id ?? 0 },
      status: 200,
    });
    expect(asAdmin.json_ld.superEvent?.url).toBe(first.url);
  });
});

import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

describe.each(PROVIDERS)("creating a recurring series (%s)", (provider) => {
  const server = useTestServer(provider);
  const as = () => server.users.administrator;

  async function occurrencesOf(id: number, query: Record<string, string | number> = {}) {
    const { body } = await server.call("GET /events/{id}/occurrences", {
      params: { id },
      query: { start_date: "2000-01-01", end_date: "2040-12-31", per_page: 50, ...query },
      status: 200,
    });
    return body;
  }

  it("creates every occurrence of a weekly rule across a DST change at the same wall-clock time", async () => {
    const created = await server.call("POST /events", {
      as: as(),
      status: 201,
      body: {
        title: "Yoga class",
        start_date: "2031-03-25 19:00:00",
        end_date: "2031-03-25 20:30:00",
        timezone: "Europe/Berlin",
        // Summer time begins on 30 March 2031.
        recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4", "EXDATE;TZID=Europe/Berlin:20310408T190000"],
      },
    });
    const first = created.body;
    expect(first).toMatchObject({
      slug: "yoga-class",
      start_date: "2031-03-25 19:00:00",
      utc_start_date: "2031-03-25 18:00:00",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU", "EXDATE;TZID=Europe/Berlin:20310408T190000"],
      original_start_date: "2031-03-25 19:00:00",
      original_start_date_utc: "2031-03-25 18:00:00",
      post_parent: 0,
    });
    expect(first.series_id).toEqual(expect.any(Number));
    const { events, total } = await occurrencesOf(first.id);
    expect(total).toBe(3);
    expect(events.map((event) => [event.start_date, event.utc_start_date, event.end_date, event.slug])).toEqual([
      ["2031-03-25 19:00:00", "2031-03-25 18:00:00", "2031-03-25 20:30:00", "yoga-class"],
      ["2031-04-01 19:00:00", "2031-04-01 17:00:00", "2031-04-01 20:30:00", "yoga-class-2031-04-01"],
      ["2031-04-15 19:00:00", "2031-04-15 17:00:00", "2031-04-15 20:30:00", "yoga-class-2031-04-15"],
    ]);
    for (const event of events.slice(1)) {
      expect(event).toMatchObject({ post_parent: first.id, series_id: first.series_id, recurrence: first.recurrence });
    }
    const children = await server.call("GET /events", {
      query: { post_parent: first.id, start_date: "2000-01-01", end_date: "2040-12-31" },
      status: 200,
    });
    expect(children.body.events.map((event) => event.start_date)).toEqual([
      "2031-04-01 19:00:00",
      "2031-04-15 19:00:00",
    ]);
    const last = events[2];
    const fromLast = await occurrencesOf(last?.id ?? 0);
    expect(fromLast.events.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(fromLast.rest_url).toContain(`/events/${last?.id}/occurrences/`);
  });

  it("answers single events with recurrence null, and lists a single event as its own occurrence", async () => {
    const single = await server.call("POST /events", {
      as: as(),
      status: 201,
      body: { title: "Once", start_date: "2031-05-01 10:00:00", end_date: "2031-05-01 11:00:00" },
    });
    expect(single.body).toMatchObject({
      recurrence: null,
      original_start_date: null,
      original_start_date_utc: null,
      series_id: null,
    });
    expect((await occurrencesOf(single.body.id)).events.map((event) => event.id)).toEqual([single.body.id]);
  });

  it("refuses rules it cannot honour with a 400 naming recurrence, writing nothing", async () => {
    const bad = [
      ["RRULE:FREQ=WEEKLY;BYFOO=1"],
      ["RRULE:FREQ=SECONDLY"],
      ["RRULE:FREQ=DAILY;COUNT=5000"],
      ["RRULE:FREQ=HOURLY"],
      ["VEVENT:nothing"],
      ["EXDATE;TZID=Europe/Berlin:20310601T100000"],
      ["RRULE:FREQ=DAILY;COUNT=3", "EXDATE;TZID=Europe/Berlin:20310601T100000"],
      // Combinations the expander would answer differently from calendar apps (the property test found them).
      ["RRULE:FREQ=YEARLY;BYMONTH=6;BYDAY=SU;BYMONTHDAY=1,2,3,4,5,6,7"],
      ["RRULE:FREQ=YEARLY;BYMONTHDAY=1"],
      ["RRULE:FREQ=YEARLY;BYMONTH=6,7;BYMONTHDAY=-1"],
      ["RRULE:FREQ=MONTHLY;BYDAY=SU;BYMONTHDAY=-1"],
      ["RRULE:FREQ=YEARLY;BYMONTH=6;BYDAY=SU;BYSETPOS=1"],
      ["RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15;BYSETPOS=-1"],
    ];
    for (const recurrence of bad) {
      const response = await server.call("POST /events", {
        as: as(),
        status: 400,
        body: {
          title: "Refused",
          start_date: "2031-06-01 10:00:00",
          end_date: "2031-06-01 11:00:00",
          timezone: "Europe/Berlin",
          recurrence,
        },
      });
      expect(response.status, recurrence.join()).toBe(400);
      expect(JSON.stringify(response.body)).toContain("recurrence");
    }
    const refused = await server.call("GET /events", {
      query: { search: "Refused", start_date: "2000-01-01", end_date: "2040-12-31" },
      status: 200,
    });
    expect(refused.body.total).toBe(0);
  });

  it("makes a translation of a series a series whose occurrences pair with the original's by original start", async () => {
    const english = await server.call("POST /events", {
      as: as(),
      status: 201,
      body: {
        title: "Book club",
        start_date: "2031-09-02 18:00:00",
        end_date: "2031-09-02 19:00:00",
        timezone: "Europe/Berlin",
        recurrence: ["RRULE:FREQ=MONTHLY;BYDAY=1TU;COUNT=3"],
      },
    });
    const german = await server.call("POST /events", {
      as: as(),
      status: 201,
      query: { ml_language: "de" },
      body: {
        title: "Lesekreis",
        start_date: "2031-09-02 18:00:00",
        end_date: "2031-09-02 19:00:00",
        timezone: "Europe/Berlin",
        translation_of: english.body.id,
        recurrence: ["RRULE:FREQ=MONTHLY;BYDAY=1TU;COUNT=2"],
      },
    });
    expect(german.body.language).toBe("de");
    const englishOccurrences = (await occurrencesOf(english.body.id)).events;
    const germanOccurrences = (await occurrencesOf(german.body.id, { ml_language: "de" })).events;
    expect(germanOccurrences.map((event) => [event.original_start_date, event.translations])).toEqual([
      ["2031-09-02 18:00:00", { en: englishOccurrences[0]?.id }],
      ["2031-10-07 18:00:00", { en: englishOccurrences[1]?.id }],
    ]);
    expect(englishOccurrences.map((event) => event.translations)).toEqual([
      { de: germanOccurrences[0]?.id },
      { de: germanOccurrences[1]?.id },
      {},
    ]);
  });
});

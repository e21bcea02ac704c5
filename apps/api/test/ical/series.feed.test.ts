import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { parseCalendar, rawLines, veventsOf } from "./ical.support.ts";
import { icalJsStarts, listedStarts, pythonStarts } from "./series.support.ts";

const FEED = "/cal/events/v1/events.ics";
/** Every reader expands each feed over this whole range: what a feed leaves out must not come back. */
const EVERYTHING = ["2000-01-01 00:00:00", "2100-01-01 00:00:00"] as const;

describe.each(PROVIDERS)("a series in the iCalendar feeds (%s)", (provider) => {
  const server = useTestServer(provider);
  const as = () => server.users.administrator;
  const ids: Record<string, number> = {};

  async function createSeries(name: string, body: Record<string, unknown>) {
    const created = await server.call("POST /events", { as: as(), status: 201, body });
    ids[name] = created.body.id;
    return created.body;
  }

  async function occurrences(name: string) {
    const { body } = await server.call("GET /events/{id}/occurrences", {
      params: { id: ids[name] ?? 0 },
      query: { start_date: "2000-01-01", end_date: "2099-12-31", per_page: 50 },
      status: 200,
    });
    return body.events;
  }

  /** The feed and the JSON list of one query, and what each reader makes of the feed. */
  async function readBack(query: Record<string, string | number>) {
    const feed = await server.rest("GET", FEED, { query });
    expect(feed.status).toBe(200);
    const list = await server.call("GET /events", { query: { ...query, per_page: 50 }, status: 200 });
    return {
      text: feed.text,
      listed: listedStarts(list.body.events),
      icalJs: icalJsStarts(feed.text, ...EVERYTHING),
      python: pythonStarts(feed.text, ...EVERYTHING),
    };
  }

  beforeAll(async () => {
    // Summer time begins on 30 March 2031: the class stays at 19:00 Berlin time (18:00 → 17:00 UTC).
    await createSeries("weekly", {
      title: "Yoga",
      start_date: "2031-03-18 19:00:00",
      end_date: "2031-03-18 20:30:00",
      timezone: "Europe/Berlin",
      recurrence: [
        "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6",
        "EXDATE;TZID=Europe/Berlin:20310401T190000",
        "RDATE;TZID=Europe/Berlin:20310503T100000",
      ],
    });
    await createSeries("monthly", {
      title: "Stammtisch",
      start_date: "2031-01-31 20:00:00",
      end_date: "2031-01-31 23:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=5"],
    });
    await createSeries("yearly", {
      title: "Stadtfest",
      start_date: "2031-06-21",
      end_date: "2031-06-22",
      all_day: true,
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=YEARLY;COUNT=3"],
    });
    await server.call("POST /events", {
      as: as(),
      status: 201,
      body: { title: "Einzeltermin", start_date: "2031-04-10 18:00:00", end_date: "2031-04-10 19:00:00" },
    });
    const weekly = await occurrences("weekly");
    // One occurrence moved an hour later and renamed, one trashed.
    const moved = weekly.find((event) => event.start_date === "2031-04-08 19:00:00");
    const trashed = weekly.find((event) => event.start_date === "2031-04-15 19:00:00");
    ids.moved = moved?.id ?? 0;
    ids.trashed = trashed?.id ?? 0;
    await server.call("POST /events/{id}", {
      as: as(),
      params: { id: ids.moved },
      body: { title: "Yoga (später)", start_date: "2031-04-08 20:00:00", end_date: "2031-04-08 21:30:00" },
      status: 200,
    });
    await server.call("DELETE /events/{id}", { as: as(), params: { id: ids.trashed }, status: 200 });
  });

  it("writes a weekly series across a DST change as one master, its moved occurrence and its trashed one as the JSON lists them", async () => {
    const { text, listed, icalJs, python } = await readBack({ start_date: "2031-03-01", end_date: "2031-05-31" });
    expect(listed).toEqual([
      "2031-03-18 18:00:00 Yoga",
      "2031-03-25 18:00:00 Yoga",
      "2031-03-28 19:00:00 Stammtisch",
      "2031-04-08 18:00:00 Yoga (später)",
      "2031-04-10 18:00:00 Einzeltermin",
      "2031-04-22 17:00:00 Yoga",
      "2031-04-25 18:00:00 Stammtisch",
      "2031-05-03 08:00:00 Yoga",
      "2031-05-30 18:00:00 Stammtisch",
    ]);
    expect(icalJs).toEqual(listed);
    expect(python).toEqual(listed);
    const yoga = veventsOf(parseCalendar(text)).filter((event) =>
      String(event.getFirstPropertyValue("summary")).startsWith("Yoga"),
    );
    const masters = yoga.filter((event) => event.hasProperty("rrule"));
    expect(masters).toHaveLength(1);
    expect(rawLines(text, "RRULE")).toContain("RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=TU");
    expect(rawLines(text, "DTSTART")).toContain("DTSTART;TZID=Europe/Berlin:20310318T190000");
    expect(rawLines(text, "RECURRENCE-ID")).toEqual(["RECURRENCE-ID;TZID=Europe/Berlin:20310408T190000"]);
    // Deleting an occurrence (scope `this`) adds its original start to the series' own EXDATE line.
    expect(rawLines(text, "EXDATE")).toEqual(
      expect.arrayContaining(["EXDATE;TZID=Europe/Berlin:20310401T190000,20310415T190000"]),
    );
    const uids = new Set(yoga.map((event) => event.getFirstPropertyValue("uid")));
    expect([yoga.length, uids.size]).toEqual([2, 1]);
  });

  it("leaves out, by EXDATE, the occurrences a narrower query does not list", async () => {
    const { listed, icalJs, python } = await readBack({ start_date: "2031-03-20", end_date: "2031-04-30" });
    expect(listed).toEqual([
      "2031-03-25 18:00:00 Yoga",
      "2031-03-28 19:00:00 Stammtisch",
      "2031-04-08 18:00:00 Yoga (später)",
      "2031-04-10 18:00:00 Einzeltermin",
      "2031-04-22 17:00:00 Yoga",
      "2031-04-25 18:00:00 Stammtisch",
    ]);
    expect(icalJs).toEqual(listed);
    expect(python).toEqual(listed);
  });

  it("writes a monthly series on the last Friday and an all-day yearly one as the JSON lists them", async () => {
    const all = await readBack({ start_date: "2031-01-01", end_date: "2034-12-31" });
    expect(all.icalJs).toEqual(all.listed);
    expect(all.python).toEqual(all.listed);
    expect(all.listed.filter((line) => line.endsWith("Stammtisch"))).toEqual([
      "2031-01-31 19:00:00 Stammtisch",
      "2031-02-28 19:00:00 Stammtisch",
      "2031-03-28 19:00:00 Stammtisch",
      "2031-04-25 18:00:00 Stammtisch",
      "2031-05-30 18:00:00 Stammtisch",
    ]);
    expect(all.listed.filter((line) => line.endsWith("Stadtfest"))).toEqual([
      "2031-06-21 Stadtfest",
      "2032-06-21 Stadtfest",
      "2033-06-21 Stadtfest",
    ]);
    expect(rawLines(all.text, "DTSTART")).toContain("DTSTART;VALUE=DATE:20310621");
    expect(rawLines(all.text, "RRULE")).toEqual(
      expect.arrayContaining(["RRULE:FREQ=MONTHLY;COUNT=5;BYDAY=-1FR", "RRULE:FREQ=YEARLY;COUNT=3"]),
    );
  });

  it("gives an occurrence's own file as that occurrence alone, with its series' UID and its RECURRENCE-ID", async () => {
    const feed = await server.rest("GET", FEED, { query: { start_date: "2031-03-01", end_date: "2031-05-31" } });
    const seriesUid = veventsOf(parseCalendar(feed.text))
      .find((event) => event.getFirstPropertyValue("summary") === "Yoga" && event.hasProperty("rrule"))
      ?.getFirstPropertyValue("uid");
    const file = await server.rest("GET", `/cal/events/v1/events/${ids.moved}.ics`);
    expect(file.status).toBe(200);
    const [only, ...others] = veventsOf(parseCalendar(file.text));
    expect(others).toEqual([]);
    expect(only?.getFirstPropertyValue("uid")).toBe(seriesUid);
    expect(rawLines(file.text, "RECURRENCE-ID")).toEqual(["RECURRENCE-ID;TZID=Europe/Berlin:20310408T190000"]);
    expect(only?.getFirstProperty("dtstart")?.toICALString()).toBe("DTSTART;TZID=Europe/Berlin:20310408T200000");
    expect(rawLines(file.text, "RRULE")).toEqual([]);
    const allDay = (await occurrences("yearly"))[1];
    const allDayFile = await server.rest("GET", `/cal/events/v1/events/${allDay?.id}.ics`);
    expect(rawLines(allDayFile.text, "RECURRENCE-ID")).toEqual(["RECURRENCE-ID;VALUE=DATE:20320621"]);
  });

  it("gives the same UIDs whatever host name the calendar is reached by", async () => {
    const query = "?start_date=2031-01-01&end_date=2034-12-31";
    const uidsThrough = async (origin: string) => {
      const response = await fetch(`${origin}${FEED}${query}`);
      expect(response.status).toBe(200);
      return veventsOf(parseCalendar(await response.text()))
        .map((event) => String(event.getFirstPropertyValue("uid")))
        .sort();
    };
    const byAddress = await uidsThrough(server.origin);
    const byName = await uidsThrough(server.origin.replace("127.0.0.1", "localhost"));
    expect(byName).toEqual(byAddress);
    const single = byAddress.filter((uid) => uid.startsWith("event-"));
    expect(single).toHaveLength(1);
    expect(single[0]).toMatch(/^event-\d+@[0-9a-f-]{36}\.calendar\.invalid$/);
  });
});

describe.each(PROVIDERS)("UIDs with CALENDAR_PUBLIC_URL (%s)", (provider) => {
  const server = useTestServer(provider, { publicUrl: "https://kalender.example.org" });

  it("end with the public URL's host", async () => {
    const created = await server.call("POST /events", {
      as: server.users.administrator,
      status: 201,
      body: { title: "Konzert", start_date: "2031-04-10 18:00:00", end_date: "2031-04-10 19:00:00" },
    });
    const file = await server.rest("GET", `/cal/events/v1/events/${created.body.id}.ics`);
    const [event] = veventsOf(parseCalendar(file.text));
    expect(event?.getFirstPropertyValue("uid")).toBe(`event-${created.body.id}@kalender.example.org`);
  });
});

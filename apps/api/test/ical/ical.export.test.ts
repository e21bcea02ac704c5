import { PROVIDERS } from "@calendar/core/testing";
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENTS, eventsOf } from "../events/support.ts";
import { documentOf, operationOf, responseOf } from "../rest/api-document.ts";
import { paramNames } from "../support/errors.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { useTestServer } from "../support/server.ts";
import { foldingProblems, parseCalendar, rawLines, veventsOf } from "./ical.support.ts";

const FEED = "/cal/events/v1/events.ics";
const WINDOW = { start_date: "2030-01-01", end_date: "2030-12-31" };
const LONG_TITLE =
  "Große Orgelnacht; Bach, Händel & Reger — mit Chor, Orchester und einem Titel, der länger ist als eine Zeile";

function summaries(text: string): string[] {
  return veventsOf(parseCalendar(text)).map((event) => String(event.getFirstPropertyValue("summary")));
}

function byUid(text: string, uidPart: string): ICAL.Component {
  const found = veventsOf(parseCalendar(text)).find((event) =>
    String(event.getFirstPropertyValue("uid")).includes(uidPart),
  );
  if (!found) throw new Error(`No VEVENT with a UID containing ${uidPart}`);
  return found;
}

describe.each(PROVIDERS)("iCalendar export (%s)", (provider) => {
  const server = useTestServer(provider, { ical: { maxEvents: 3, siteName: "Stadtkalender" } });
  const events = eventsOf(server);
  const ids: Record<string, number> = {};
  let winterUrl = "";

  beforeAll(async () => {
    const winter = await events.create({
      title: LONG_TITLE,
      description: '<p>Eintritt <b>frei</b>, <a href="https://example.org/orgel">Programm</a></p>',
      start_date: "2030-01-15 19:30:00",
      end_date: "2030-01-15 22:00:00",
      timezone: "Europe/Berlin",
      categories: ["Konzerte"],
      venue: {
        venue: "Thomaskirche",
        address: "Thomaskirchhof 18",
        city: "Leipzig",
        zip: "04109",
        country: "Germany",
        geo_lat: 51.3393,
        geo_lng: 12.3724,
      },
      organizer: { organizer: "Thomanerchor", email: "chor@example.org" },
      image: "https://example.org/orgel.jpg",
    });
    const summer = await events.create({
      title: "Sommerkonzert",
      start_date: "2030-07-15 19:30:00",
      end_date: "2030-07-15 22:00:00",
      timezone: "Europe/Berlin",
      categories: ["Open Air"],
    });
    const allDay = await events.create({
      title: "Stadtfest",
      start_date: "2030-08-01",
      end_date: "2030-08-03",
      all_day: true,
      timezone: "Europe/Berlin",
    });
    const secret = await events.create({
      title: "Geheimes Treffen",
      description: "Nur mit Passwort",
      start_date: "2030-09-01 10:00:00",
      end_date: "2030-09-01 11:00:00",
      password: "sesam",
    });
    winterUrl = winter.url;
    Object.assign(ids, { winter: winter.id, summer: summer.id, allDay: allDay.id, secret: secret.id });
  });

  it("answers a strict, folded iCalendar with the calendar's properties", async () => {
    const response = await server.rest("GET", FEED, { query: { ...WINDOW, categories: "Konzerte" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(foldingProblems(response.text)).toEqual([]);
    const calendar = parseCalendar(response.text);
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(calendar.getFirstPropertyValue("prodid")).toBe("-//Calendar//Calendar//EN");
    expect(calendar.getFirstPropertyValue("calscale")).toBe("GREGORIAN");
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Stadtkalender (en)");
    expect(calendar.getFirstPropertyValue("x-wr-timezone")).toBe("UTC");
    expect(rawLines(response.text, "REFRESH-INTERVAL")).toEqual(["REFRESH-INTERVAL;VALUE=DURATION:PT1H"]);
    expect(rawLines(response.text, "X-PUBLISHED-TTL")).toEqual(["X-PUBLISHED-TTL:PT1H"]);
    expect(summaries(response.text)).toEqual([LONG_TITLE]);
  });

  it("writes every field of an event", async () => {
    const text = (await server.rest("GET", FEED, { query: WINDOW })).text;
    const event = byUid(text, `event-${ids.winter}@`);
    // Without CALENDAR_PUBLIC_URL, the calendar's stored identity, whatever the request's Host (series.feed.test.ts).
    expect(event.getFirstPropertyValue("uid")).toMatch(
      new RegExp(`^event-${ids.winter}@[0-9a-f-]{36}\\.calendar\\.invalid$`),
    );
    expect(event.getFirstPropertyValue("summary")).toBe(LONG_TITLE);
    expect(rawLines(text, "SUMMARY")[0]).toContain("Große Orgelnacht\\; Bach\\, Händel & Reger");
    expect(event.getFirstPropertyValue("description")).toBe("Eintritt frei, Programm [https://example.org/orgel]");
    expect(event.getFirstProperty("x-alt-desc")?.getParameter("fmttype")).toBe("text/html");
    // ical.js leaves X- properties escaped.
    expect(event.getFirstPropertyValue("x-alt-desc")).toBe(
      '<p>Eintritt <b>frei</b>\\, <a href="https://example.org/orgel">Programm</a></p>',
    );
    expect(event.getFirstPropertyValue("location")).toBe("Thomaskirche\nThomaskirchhof 18, 04109 Leipzig, Germany");
    expect(event.getFirstPropertyValue("geo")).toEqual([51.3393, 12.3724]);
    const organizer = event.getFirstProperty("organizer");
    expect([organizer?.getParameter("cn"), organizer?.getFirstValue()]).toEqual([
      "Thomanerchor",
      "mailto:chor@example.org",
    ]);
    expect(event.getFirstPropertyValue("categories")).toBe("Konzerte");
    expect(event.getFirstPropertyValue("url")).toBe(winterUrl);
    expect(event.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(event.getFirstPropertyValue("attach")).toBe("https://example.org/orgel.jpg");
    expect(event.getFirstProperty("attach")?.getParameter("fmttype")).toBe("image/jpeg");
    expect([event.getFirstPropertyValue("image"), event.getFirstProperty("image")?.getParameter("fmttype")]).toEqual([
      "https://example.org/orgel.jpg",
      "image/jpeg",
    ]);
    expect(rawLines(text, "IMAGE")).toEqual(["IMAGE;VALUE=URI;FMTTYPE=image/jpeg:https://example.org/orgel.jpg"]);
    const withoutImage = byUid(text, `event-${ids.summer}@`).getAllProperties();
    expect(withoutImage.map((property) => property.name)).not.toContain("attach");
    expect(typeof event.getFirstPropertyValue("sequence")).toBe("number");
    for (const name of ["dtstamp", "created", "last-modified"]) {
      expect((event.getFirstPropertyValue(name) as ICAL.Time).zone).toBe(ICAL.Timezone.utcTimezone);
    }
  });

  it("writes the stored SEQUENCE: 0 when created, one more with every update", async () => {
    const created = await events.create({
      title: "Probe",
      start_date: "2031-10-01 18:00:00",
      end_date: "2031-10-01 20:00:00",
    });
    const sequence = async () => {
      const text = (await server.rest("GET", `/cal/events/v1/events/${created.id}.ics`)).text;
      return veventsOf(parseCalendar(text))[0]?.getFirstPropertyValue("sequence");
    };
    expect(await sequence()).toBe(0);
    const as = server.users.administrator;
    const params = { id: created.id };
    await server.call("PATCH /events/{id}", { params, as, body: { start_date: "2031-10-01 19:00:00" }, status: 200 });
    await server.call("PUT /events/{id}", { params, as, body: { title: "Probe (verlegt)" }, status: 200 });
    expect(await sequence()).toBe(2);
    const stored = await server.db.event.findUniqueOrThrow({ where: { id: created.id }, select: { sequence: true } });
    expect(stored.sequence).toBe(2);
  });

  it("writes times in the event's zone with a VTIMEZONE of real DST rules", async () => {
    const text = (await server.rest("GET", FEED, { query: WINDOW })).text;
    const calendar = parseCalendar(text);
    const zones = calendar.getAllSubcomponents("vtimezone").map((zone) => zone.getFirstPropertyValue("tzid"));
    expect(zones).toEqual(["Europe/Berlin"]);
    const zone = new ICAL.Timezone(calendar.getFirstSubcomponent("vtimezone") as ICAL.Component);
    const utcOf = (uidPart: string, name: string) => {
      const property = byUid(text, uidPart).getFirstProperty(name);
      expect(property?.getParameter("tzid")).toBe("Europe/Berlin");
      const time = property?.getFirstValue() as ICAL.Time;
      time.zone = zone;
      return time.toJSDate().toISOString();
    };
    expect(rawLines(text, "DTSTART").filter((line) => line.includes("TZID"))).toContain(
      "DTSTART;TZID=Europe/Berlin:20300115T193000",
    );
    expect([utcOf(`event-${ids.winter}@`, "dtstart"), utcOf(`event-${ids.winter}@`, "dtend")]).toEqual([
      "2030-01-15T18:30:00.000Z",
      "2030-01-15T21:00:00.000Z",
    ]);
    expect(utcOf(`event-${ids.summer}@`, "dtstart")).toBe("2030-07-15T17:30:00.000Z");
  });

  it("writes each zone's real history for the years covered (São Paulo's DST until 2019, Moscow's 2011 and 2014)", async () => {
    const historic = [
      ["America/Sao_Paulo", "2018-12-01 10:00:00", "2018-12-01 12:00:00"],
      ["America/Sao_Paulo", "2020-01-15 10:00:00", "2020-01-15 13:00:00"],
      ["Europe/Moscow", "2010-07-01 12:00:00", "2010-07-01 08:00:00"],
      ["Europe/Moscow", "2012-01-10 12:00:00", "2012-01-10 08:00:00"],
      ["Europe/Moscow", "2015-01-10 12:00:00", "2015-01-10 09:00:00"],
    ] as const;
    for (const [timezone, start] of historic) {
      const created = await events.create({
        title: `${timezone} ${start}`,
        start_date: start,
        end_date: start,
        timezone,
      });
      expect(created.utc_start_date).toBe(historic.find(([, local]) => local === start)?.[2]);
    }
    const readBack = async (query: Record<string, string>) => {
      const calendar = parseCalendar((await server.rest("GET", FEED, { query })).text);
      const zones = new Map(
        calendar
          .getAllSubcomponents("vtimezone")
          .map((component) => [String(component.getFirstPropertyValue("tzid")), new ICAL.Timezone(component)]),
      );
      return veventsOf(calendar).map((event) => {
        const property = event.getFirstProperty("dtstart");
        const time = property?.getFirstValue() as ICAL.Time;
        time.zone = zones.get(String(property?.getParameter("tzid"))) ?? ICAL.Timezone.utcTimezone;
        return [event.getFirstPropertyValue("summary"), time.toJSDate().toISOString()];
      });
    };
    const expected = (zone: string) =>
      historic
        .filter(([timezone]) => timezone === zone)
        .map(([timezone, start, utc]) => [`${timezone} ${start}`, `${utc.replace(" ", "T")}.000Z`]);
    expect(await readBack({ start_date: "2018-01-01", end_date: "2020-12-31" })).toEqual(expected("America/Sao_Paulo"));
    expect(await readBack({ start_date: "2010-01-01", end_date: "2015-12-31" })).toEqual(expected("Europe/Moscow"));
  });

  it("writes all-day events as dates with the exclusive end", async () => {
    const text = (await server.rest("GET", FEED, { query: WINDOW })).text;
    const event = byUid(text, `event-${ids.allDay}@`);
    expect(rawLines(text, "DTSTART")).toContain("DTSTART;VALUE=DATE:20300801");
    expect(rawLines(text, "DTEND")).toContain("DTEND;VALUE=DATE:20300804");
    expect((event.getFirstPropertyValue("dtstart") as ICAL.Time).isDate).toBe(true);
  });

  it("holds at most CALENDAR_ICAL_MAX_EVENTS events, in the list's order", async () => {
    const text = (await server.rest("GET", FEED, { query: WINDOW })).text;
    expect(summaries(text)).toEqual([LONG_TITLE, "Sommerkonzert", "Stadtfest"]);
  });

  it("shows a protected event as the JSON does to the same caller", async () => {
    const query = { start_date: "2030-09-01", end_date: "2030-09-02" };
    const anonymous = byUid((await server.rest("GET", FEED, { query })).text, `event-${ids.secret}@`);
    expect([anonymous.getFirstPropertyValue("summary"), anonymous.getFirstPropertyValue("description")]).toEqual([
      "Geheimes Treffen",
      null,
    ]);
    const unlocked = byUid(
      (await server.rest("GET", FEED, { query: { ...query, password: "sesam" } })).text,
      `event-${ids.secret}@`,
    );
    expect(unlocked.getFirstPropertyValue("description")).toBe("Nur mit Passwort");
  });

  it("answers GET /events with Accept: text/calendar as the feed", async () => {
    const feed = await server.rest("GET", FEED, { query: WINDOW });
    const negotiated = await server.rest("GET", EVENTS, { query: WINDOW, headers: { accept: "text/calendar" } });
    expect(negotiated.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const withoutStamps = (text: string) => text.replace(/DTSTAMP:\d{8}T\d{6}Z/g, "");
    expect(withoutStamps(negotiated.text)).toBe(withoutStamps(feed.text));
    const json = await server.call("GET /events", {
      query: WINDOW,
      headers: { accept: "application/json, text/calendar;q=0.5" },
    });
    expect([json.headers.get("content-type"), json.body.events.length]).toEqual(["application/json; charset=utf-8", 4]);
  });

  it("serves one event by id and by slug, under a language prefix too", async () => {
    const byId = await server.rest("GET", `/cal/events/v1/events/${ids.summer}.ics`);
    expect([byId.status, byId.headers.get("content-type"), summaries(byId.text)]).toEqual([
      200,
      "text/calendar; charset=utf-8",
      ["Sommerkonzert"],
    ]);
    const bySlug = await server.rest("GET", "/cal/events/v1/events/by-slug/stadtfest.ics");
    expect([bySlug.status, summaries(bySlug.text)]).toEqual([200, ["Stadtfest"]]);
    const prefixed = await server.rest("GET", `/de/cal/events/v1/events/${ids.summer}.ics`);
    expect(parseCalendar(prefixed.text).getFirstPropertyValue("x-wr-calname")).toBe("Stadtkalender (de)");
    const german = await server.rest("GET", "/de/cal/events/v1/events.ics", { query: WINDOW });
    expect([german.status, summaries(german.text)]).toEqual([200, []]);
    const chosen = await server.rest("GET", "/de/cal/events/v1/events.ics", {
      query: { ...WINDOW, ml_language: "en" },
    });
    expect(summaries(chosen.text)).toHaveLength(3);
  });

  it("answers the JSON errors of the event reads", async () => {
    const missing = await server.rest<RestErrorBody>("GET", "/cal/events/v1/events/999999.ics");
    expect([missing.status, missing.body.code]).toEqual([404, "rest-event-not-found"]);
    const slug = await server.rest<RestErrorBody>("GET", "/cal/events/v1/events/by-slug/nope.ics");
    expect([slug.status, slug.body.code]).toEqual([400, "rest_invalid_param"]);
    const locked = await server.rest("GET", `/cal/events/v1/events/${ids.secret}.ics`);
    expect(locked.status).toBe(403);
    const bad = await server.rest<RestErrorBody>("GET", FEED, { query: { per_page: "x", featured: "maybe" } });
    expect([bad.status, bad.body.code, paramNames(bad.body)]).toEqual([
      400,
      "rest_invalid_param",
      ["per_page", "featured"],
    ]);
  });

  it("lists the .ics routes in the API document, answering text/calendar", async () => {
    const document = await documentOf(server);
    for (const path of ["/events.ics", "/events/{id}.ics", "/events/by-slug/{slug}.ics"]) {
      const answer = responseOf(operationOf(document, path, "get"), "200");
      expect({ path, types: Object.keys(answer.content ?? {}) }).toEqual({ path, types: ["text/calendar"] });
    }
    const names = (operationOf(document, "/events.ics", "get").parameters ?? []).map((parameter) =>
      "name" in parameter ? parameter.name : parameter.$ref,
    );
    expect(names).toEqual(expect.arrayContaining(["start_date", "categories", "search", "ml_language"]));
    expect(names).not.toContain("per_page");
  });
});

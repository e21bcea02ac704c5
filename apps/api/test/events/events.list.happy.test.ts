import { PROVIDERS } from "@calendar/core/testing";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { first, single } from "../support/narrow.ts";
import { useTestServer } from "../support/server.ts";
import { EVENTS, eventsOf } from "./support.ts";

const WALL = "yyyy-MM-dd HH:mm:ss";

describe.each(PROVIDERS)("listing events (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const at = (start: string, end: string, extra: Record<string, unknown> = {}) => ({
    start_date: start,
    end_date: end,
    ...extra,
  });
  /** Creates events in one category; returns their ids. */
  async function seed(category: string, bodies: Array<Record<string, unknown>>): Promise<number[]> {
    const ids: number[] = [];
    for (const [index, body] of bodies.entries()) {
      ids.push((await events.create({ title: `${category} ${index}`, categories: [category], ...body })).id);
    }
    return ids;
  }

  it("pages the list with links, totals and the four total headers", async () => {
    const ids = await seed(
      "paging",
      [1, 2, 3, 4, 5].map((day) => at(`2031-01-0${day} 10:00:00`, `2031-01-0${day} 11:00:00`)),
    );
    const query = { categories: "paging", start_date: "2031-01-01", end_date: "2031-01-31", per_page: "2" };
    const base = `${server.origin}${EVENTS}/`;
    const echo = "per_page=2&start_date=2031-01-01+00%3A00%3A00&end_date=2031-01-31+23%3A59%3A59&categories=paging";

    const one = await events.list(query);
    expect({ ...one.body, events: one.body.events.map((event) => event.id) }).toEqual({
      events: ids.slice(0, 2),
      rest_url: `${base}?page=1&${echo}`,
      next_rest_url: `${base}?page=2&${echo}`,
      total: 5,
      total_pages: 3,
    });
    expect(Object.keys(one.body)).toEqual(["events", "rest_url", "next_rest_url", "total", "total_pages"]);
    expect(
      ["x-wp-total", "x-wp-totalpages", "x-tec-total", "x-tec-totalpages"].map((name) => one.headers.get(name)),
    ).toEqual(["5", "3", "5", "3"]);

    const second = await events.list({ ...query, page: "2" });
    expect(second.body.events.map((event) => event.id)).toEqual(ids.slice(2, 4));
    expect([second.body.next_rest_url, second.body.previous_rest_url]).toEqual([
      `${base}?page=3&${echo}`,
      `${base}?${echo}`,
    ]);
    const third = await events.list({ ...query, page: "3" });
    expect(third.body.events.map((event) => event.id)).toEqual(ids.slice(4));
    expect(Object.keys(third.body)).toEqual(["events", "rest_url", "previous_rest_url", "total", "total_pages"]);
    expect(third.body.previous_rest_url).toBe(`${base}?page=2&${echo}`);

    const past = await server.fail("GET /events", 404, { query: { ...query, page: "4" } });
    expect(past.body).toEqual({
      code: "event-archive-page-not-found",
      message: "The requested event archive page does not exist",
      data: { status: 404 },
    });
  });

  it("answers an empty first page with 200 and zero totals, and clamps per_page to 50", async () => {
    const empty = await events.list({ start_date: "1990-01-01", end_date: "1990-01-02" });
    expect([empty.status, empty.body.events, empty.body.total, empty.body.total_pages]).toEqual([200, [], 0, 0]);
    expect([empty.headers.get("x-wp-total"), empty.headers.get("x-tec-totalpages")]).toEqual(["0", "0"]);
    const clamped = await events.list({ per_page: "100", start_date: "1990-01-01", end_date: "1990-01-02" });
    expect(clamped.body.rest_url).toContain("per_page=50&");
  });

  it("lists events from yesterday 00:00 to 24 months ahead by default", async () => {
    const now = DateTime.utc();
    const wall = (dateTime: DateTime) => dateTime.toFormat(WALL);
    const [yesterday, twoDaysAgo, tomorrow, farAhead, endsFarAhead] = await seed("window", [
      at(wall(now.minus({ days: 1 }).startOf("day").plus({ minutes: 1 })), wall(now.minus({ days: 1 }).endOf("day"))),
      at(wall(now.minus({ days: 2 }).startOf("day")), wall(now.minus({ days: 2 }).endOf("day"))),
      at(wall(now.plus({ days: 1 })), wall(now.plus({ days: 1, hours: 1 }))),
      at(wall(now.plus({ months: 25 })), wall(now.plus({ months: 25, hours: 1 }))),
      at(wall(now.plus({ days: 1 })), wall(now.plus({ months: 25 }))),
    ]);
    const response = await events.list({ categories: "window" });
    const listed = response.body.events.map((event) => event.id);
    expect(listed).toEqual([yesterday, tomorrow]);
    const echoed = new URL(response.body.rest_url).searchParams;
    expect([echoed.get("start_date"), echoed.get("end_date")]).toEqual([
      wall(now.minus({ days: 1 }).startOf("day")),
      `${now.plus({ months: 24 }).toFormat("yyyy-MM-dd")} 23:59:59`,
    ]);
    expect(listed.filter((id) => [twoDaysAgo, farAhead, endsFarAhead].includes(id))).toEqual([]);
  });

  it("includes whole days unless strict_dates (docs/behaviour.md § Event lists)", async () => {
    const [, e1, e2] = await seed("example-one", [
      at("2017-12-31 17:00:00", "2017-12-31 18:00:00"),
      at("2018-01-01 16:00:00", "2018-01-01 16:30:00"),
      at("2018-01-01 20:00:00", "2018-01-01 20:30:00"),
      at("2018-01-02 10:00:00", "2018-01-02 11:00:00"),
    ]);
    const query = { categories: "example-one", start_date: "2018-01-01 15:00", end_date: "2018-01-01 18:00" };
    const inclusive = await events.list(query);
    expect(inclusive.body.events.map((event) => event.id)).toEqual([e1, e2]);
    expect(inclusive.body.rest_url).toContain("start_date=2018-01-01+00%3A00%3A00&end_date=2018-01-01+23%3A59%3A59");
    expect(await events.ids({ ...query, strict_dates: "true" })).toEqual([e1]);
  });

  it("applies relative filters alone, or with explicit start and end dates (the relative example of 3.1)", async () => {
    const [, e1, e2, e3, e4, e5] = await seed("example-two", [
      at("2017-12-31 17:00:00", "2017-12-31 19:00:00"),
      at("2018-01-01 16:00:00", "2018-01-01 17:00:00"),
      at("2018-01-01 19:00:00", "2018-01-01 20:00:00"),
      at("2018-01-02 10:00:00", "2018-01-02 11:00:00"),
      at("2017-12-30 10:00:00", "2018-01-02 10:00:00"),
      at("2017-12-29 10:00:00", "2018-01-03 10:00:00"),
    ]);
    const relative = { categories: "example-two", ends_after: "2017-12-31", starts_before: "2018-01-02" };
    expect(await events.ids(relative)).toEqual([e5, e4, e1, e2, e3]);
    expect(await events.ids({ ...relative, start_date: "2017-12-30", end_date: "2018-01-02" })).toEqual([
      e4,
      e1,
      e2,
      e3,
    ]);
    const echoed = new URL((await events.list(relative)).body.rest_url).searchParams;
    expect([echoed.get("start_date"), echoed.get("ends_after"), echoed.get("starts_before")]).toEqual([
      null,
      "2017-12-31 23:59:59",
      "2018-01-02 23:59:59",
    ]);
  });

  it("moves starts_after and ends_before to the end of their day unless strict", async () => {
    const [e0, e1, e2] = await seed("snapping", [
      at("2019-12-31 17:00:00", "2019-12-31 18:00:00"),
      at("2020-01-01 16:00:00", "2020-01-01 17:00:00"),
      at("2020-01-02 10:00:00", "2020-01-02 11:00:00"),
    ]);
    expect(await events.ids({ categories: "snapping", starts_after: "2019-12-31" })).toEqual([e1, e2]);
    expect(await events.ids({ categories: "snapping", starts_after: "2019-12-31 12:00", strict_dates: "1" })).toEqual([
      e0,
      e1,
      e2,
    ]);
    expect(await events.ids({ categories: "snapping", ends_before: "2020-01-01" })).toEqual([e0, e1]);
    expect(await events.ids({ categories: "snapping", ends_before: "2020-01-01 12:00", strict_dates: "1" })).toEqual([
      e0,
    ]);
  });

  it("orders equal starts by post date, then id", async () => {
    const [newest, oldest, sameAsOldest] = await seed("ties", [
      at("2031-06-01 10:00:00", "2031-06-01 11:00:00", { date: "2020-01-02 00:00:00" }),
      at("2031-06-01 10:00:00", "2031-06-01 11:00:00", { date: "2020-01-01 00:00:00" }),
      at("2031-06-01 10:00:00", "2031-06-01 11:00:00", { date: "2020-01-01 00:00:00" }),
    ]);
    expect(await events.ids({ categories: "ties", start_date: "2031-06-01", end_date: "2031-06-02" })).toEqual([
      oldest,
      sameAsOldest,
      newest,
    ]);
  });

  it("returns only the included ids, by post date, without any date window", async () => {
    const [recent, older, ancient] = await seed("include", [
      at("2031-07-01 10:00:00", "2031-07-01 11:00:00", { date: "2021-03-01 00:00:00" }),
      at("2031-07-02 10:00:00", "2031-07-02 11:00:00", { date: "2021-02-01 00:00:00" }),
      at("2010-07-01 10:00:00", "2010-07-01 11:00:00", { date: "2021-01-01 00:00:00" }),
    ]);
    const response = await events.list({ include: `${recent},${older},${ancient}`, start_date: "2031-07-01" });
    expect(response.body.events.map((event) => event.id)).toEqual([ancient, older, recent]);
    expect(response.body.rest_url).not.toContain("start_date");
    expect(await events.ids({ include: [String(older), String(ancient)] })).toEqual([ancient, older]);
  });

  it("finds events having every search word in the title, excerpt or description, in any case or accent", async () => {
    const window = { start_date: "2032-01-01", end_date: "2032-01-31" };
    const day = at("2032-01-10 10:00:00", "2032-01-10 11:00:00");
    const ids: Record<string, number> = {};
    for (const [name, body] of Object.entries({
      quux1: { title: "Quuxa" },
      quux2: { title: "quuxa night" },
      both1: { title: "Quuxa zorba" },
      both2: { title: "Other", excerpt: "zorba and QUUXA" },
      zorb1: { title: "Zorba" },
      zorb2: { title: "Other", description: "<p>A <b>zorba</b></p>" },
      cafe: { title: "Café Olé" },
      percent: { title: "100% fun" },
      thousand: { title: "1000 fun" },
    })) {
      ids[name] = (await events.create({ ...day, ...body })).id;
    }
    const search = (text: string) => events.ids({ ...window, search: text });
    expect(await search("quuxa")).toEqual([ids.quux1, ids.quux2, ids.both1, ids.both2]);
    expect(await search("ZORBA")).toEqual([ids.both1, ids.both2, ids.zorb1, ids.zorb2]);
    expect(await search("zorba quuxa")).toEqual([ids.both1, ids.both2]);
    expect(await search("CAFE ole")).toEqual([ids.cafe]);
    expect(await search("100%")).toEqual([ids.percent]);
    expect(await search("b>zorba")).toEqual([]);
  });

  it("filters by categories and tags: any of a kind, every kind", async () => {
    const window = { start_date: "2032-02-01", end_date: "2032-02-28" };
    const day = at("2032-02-10 10:00:00", "2032-02-10 11:00:00");
    const x = await events.create({ ...day, title: "x", categories: ["Alpha Cat"] });
    const y = await events.create({ ...day, title: "y", categories: ["Beta Cat"], tags: ["Tee"] });
    const z = await events.create({ ...day, title: "z", categories: ["Alpha Cat"], tags: ["Tee"] });
    await events.create({ ...day, title: "w" });
    const alpha = first(x.categories).id;
    const beta = first(y.categories).id;
    expect(await events.ids({ ...window, categories: String(alpha) })).toEqual([x.id, z.id]);
    expect(await events.ids({ ...window, categories: `alpha-cat, ${beta}` })).toEqual([x.id, y.id, z.id]);
    expect(await events.ids({ ...window, "categories[]": ["alpha-cat", "beta-cat"] })).toEqual([x.id, y.id, z.id]);
    expect(await events.ids({ ...window, tags: "tee" })).toEqual([y.id, z.id]);
    expect(await events.ids({ ...window, categories: "alpha-cat", tags: "tee" })).toEqual([z.id]);
  });

  it("filters by venues and organizers: any of a kind, every kind", async () => {
    const window = { start_date: "2032-03-01", end_date: "2032-03-31" };
    const day = at("2032-03-10 10:00:00", "2032-03-10 11:00:00");
    const a = await events.create({
      ...day,
      title: "a",
      venue: { venue: "V one" },
      organizer: [{ organizer: "O one" }],
    });
    const v1 = single(a.venue).id;
    const o1 = first(a.organizer).id;
    const b = await events.create({
      ...day,
      title: "b",
      venue: { venue: "V two" },
      organizer: [o1, { organizer: "O two" }],
    });
    const v2 = single(b.venue).id;
    const [, o2] = b.organizer.map((organizer) => organizer.id);
    const c = await events.create({ ...day, title: "c", venue: v1, organizer: o2 });
    expect(await events.ids({ ...window, venue: String(v1) })).toEqual([a.id, c.id]);
    expect(await events.ids({ ...window, venue: `${v1},${v2}` })).toEqual([a.id, b.id, c.id]);
    expect(await events.ids({ ...window, organizer: String(o2) })).toEqual([b.id, c.id]);
    expect(await events.ids({ ...window, venue: String(v1), organizer: String(o2) })).toEqual([c.id]);
  });

  it("filters by featured, ticketed and parent, and leaves hidden events out", async () => {
    const window = { start_date: "2032-04-01", end_date: "2032-04-30" };
    const day = at("2032-04-10 10:00:00", "2032-04-10 11:00:00");
    const plain = await events.create({ ...day, title: "plain" });
    const featured = await events.create({ ...day, title: "featured", featured: true, ticketed: true });
    const child = await events.create({ ...day, title: "child", post_parent: plain.id });
    const sibling = await events.create({ ...day, title: "sibling", post_parent: plain.id, featured: "1" });
    const hidden = await events.create({ ...day, title: "hidden", hide_from_listings: true });
    expect(await events.ids({ ...window, featured: "true" })).toEqual([featured.id, sibling.id]);
    expect(await events.ids({ ...window, featured: "0" })).toEqual([plain.id, child.id]);
    expect(await events.ids({ ...window, ticketed: "1" })).toEqual([featured.id]);
    expect(await events.ids({ ...window, ticketed: "false" })).toEqual([plain.id, child.id, sibling.id]);
    const children = await events.list({ ...window, post_parent: String(plain.id) });
    expect([children.body.events.map((event) => event.id), children.body.total, children.body.total_pages]).toEqual([
      [child.id, sibling.id],
      2,
      1,
    ]);
    await server.call("GET /events/{id}", { params: { id: hidden.id }, status: 200 });
  });

  it("filters by venue coordinates and by distance, nearest first within equal starts", async () => {
    const venue = async (name: string, geo: Record<string, number>) =>
      (await server.call("POST /venues", { as: server.users.administrator, body: { venue: name, ...geo } })).body.id;
    const rome = await venue("Rome", { geo_lat: 41.9028, geo_lng: 12.4964 });
    const tivoli = await venue("Tivoli", { geo_lat: 41.9632, geo_lng: 12.7988 });
    const milan = await venue("Milan", { geo_lat: 45.4642, geo_lng: 9.19 });
    const nowhere = await venue("Nowhere", {});
    const sameStart = at("2033-01-01 10:00:00", "2033-01-01 11:00:00");
    const [atTivoli, atRome, atMilan, atNowhere, romeLater] = await seed("geo", [
      { ...sameStart, venue: tivoli },
      { ...sameStart, venue: rome },
      { ...sameStart, venue: milan },
      { ...sameStart, venue: nowhere },
      at("2033-01-02 10:00:00", "2033-01-02 11:00:00", { venue: rome }),
    ]);
    const window = { categories: "geo", start_date: "2033-01-01", end_date: "2033-01-31" };
    const centre = { geoloc_lat: "41.9028", geoloc_lng: "12.4964" };
    expect(await events.ids({ ...window, geoloc: "true" })).toEqual([atTivoli, atRome, atMilan, romeLater]);
    expect(await events.ids({ ...window, geoloc: "false" })).toEqual([atNowhere]);
    expect(await events.ids({ ...window, ...centre })).toEqual([atRome, romeLater]);
    expect(await events.ids({ ...window, ...centre, geoloc_radius: "30" })).toEqual([atRome, atTivoli, romeLater]);
    expect(await events.ids({ ...window, ...centre, geoloc_radius: "1000" })).toEqual([
      atRome,
      atTivoli,
      atMilan,
      romeLater,
    ]);
    const pages = [];
    for (const page of ["1", "2", "3", "4"]) {
      const response = await events.list({ ...window, ...centre, geoloc_radius: "1000", per_page: "1", page });
      pages.push([response.body.events.map((event) => event.id), response.body.total]);
    }
    expect(pages).toEqual([
      [[atRome], 4],
      [[atTivoli], 4],
      [[atMilan], 4],
      [[romeLater], 4],
    ]);
  });

  it("gives the same list over tRPC as over REST", async () => {
    await seed("same-list", [at("2032-05-01 10:00:00", "2032-05-01 11:00:00")]);
    const query = { categories: "same-list", start_date: "2032-05-01", end_date: "2032-05-02" };
    const rest = await events.list(query);
    const trpc = await server.client().events.list.query({
      categories: ["same-list"],
      start_date: "2032-05-01",
      end_date: "2032-05-02",
    });
    expect(trpc).toEqual(rest.body);
  });
});

describe.each(PROVIDERS)("listing events of a site in New York (%s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "America/New_York" } });
  const events = eventsOf(server);

  it("reads date filters and new events' dates in the site's zone", async () => {
    const created = await events.create({
      title: "Evening",
      start_date: "2034-03-01 21:00:00",
      end_date: "2034-03-01 21:30:00",
    });
    expect([created.timezone, created.utc_start_date]).toEqual(["America/New_York", "2034-03-02 02:00:00"]);
    expect(await events.ids({ start_date: "2034-03-01", end_date: "2034-03-01" })).toEqual([created.id]);
    expect(await events.ids({ start_date: "2034-03-02", end_date: "2034-03-02" })).toEqual([]);
    expect(
      await events.ids({ start_date: "2034-03-01 20:00", end_date: "2034-03-01 21:00", strict_dates: "true" }),
    ).toEqual([]);
  });
});

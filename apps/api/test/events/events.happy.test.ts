import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { first, many, present, single } from "../support/narrow.ts";
import { type RestRequest, useTestServer } from "../support/server.ts";
import { BASE, EVENTS, eventsOf } from "./support.ts";

const WALL_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

function details(wallTime: string) {
  const [date = "", time = ""] = wallTime.split(" ");
  const [year, month, day] = date.split("-");
  const [hour, minutes, seconds] = time.split(":");
  return { year, month, day, hour, minutes, seconds };
}

describe.each(PROVIDERS)("creating and reading events (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const host = () => server.origin.replace(/^https?:\/\//, "");

  const FULL_BODY = {
    title: "Jazz night",
    description: "<p>Live <b>music</b></p>",
    excerpt: "Late jazz",
    slug: "jazz-night-2030",
    start_date: "2030-06-01 20:00:00",
    end_date: "2030-06-01 23:30:00",
    timezone: "Europe/Rome",
    date: "2029-01-01 10:00:00",
    cost: "€15",
    website: "https://jazz.example",
    featured: true,
    sticky: "1",
    show_map: "false",
    show_map_link: true,
    hide_from_listings: "0",
    ticketed: "true",
    image: "https://img.example/poster.png",
    categories: ["Live", "Jazz"],
    tags: "late,free entry",
    venue: { venue: "Blue Note", city: "Milan" },
    organizer: [{ organizer: "Jazz Club", email: "club@example.org" }],
  };

  it("creates an event from every write field and answers 201 with it", async () => {
    const response = await server.call("POST /events", {
      as: server.users.administrator,
      body: FULL_BODY,
      status: 201,
    });
    expect(response.status).toBe(201);
    const { venue, organizer, categories, tags, image, ...own } = response.body;
    const id = own.id;
    expect(own).toEqual({
      id,
      global_id: `${host()}?id=${id}`,
      global_id_lineage: [`${host()}?id=${id}`],
      author: String(server.users.administrator.id),
      status: "publish",
      date: "2029-01-01 09:00:00",
      date_utc: "2029-01-01 09:00:00",
      modified: own.modified,
      modified_utc: own.modified_utc,
      url: `${server.origin}/event/jazz-night-2030/`,
      rest_url: `${server.origin}${EVENTS}/${id}`,
      title: "Jazz night",
      description: "<p>Live <b>music</b></p>",
      excerpt: "Late jazz",
      slug: "jazz-night-2030",
      all_day: false,
      start_date: "2030-06-01 20:00:00",
      start_date_details: details("2030-06-01 20:00:00"),
      end_date: "2030-06-01 23:30:00",
      end_date_details: details("2030-06-01 23:30:00"),
      utc_start_date: "2030-06-01 18:00:00",
      utc_start_date_details: details("2030-06-01 18:00:00"),
      utc_end_date: "2030-06-01 21:30:00",
      utc_end_date_details: details("2030-06-01 21:30:00"),
      timezone: "Europe/Rome",
      timezone_abbr: "CEST",
      cost: "€15",
      cost_details: { currency_symbol: "€", currency_code: "", currency_position: "prefix", values: ["15"] },
      website: "https://jazz.example",
      show_map: false,
      show_map_link: true,
      hide_from_listings: false,
      sticky: true,
      featured: true,
      ticketed: true,
      post_parent: 0,
      recurrence: null,
      original_start_date: null,
      original_start_date_utc: null,
      series_id: null,
      language: "en",
      translations: {},
    });
    expect(own.modified).toMatch(WALL_TIME);
    expect(image).toEqual({
      url: "https://img.example/poster.png",
      id: present(image).id,
      extension: "png",
      width: null,
      height: null,
      sizes: {},
    });
    expect(categories.map((term: { name: string }) => term.name)).toEqual(["Jazz", "Live"]);
    expect(tags.map((term: { name: string; taxonomy: string }) => [term.name, term.taxonomy])).toEqual([
      ["free entry", "post_tag"],
      ["late", "post_tag"],
    ]);
    expect(venue).toMatchObject({ venue: "Blue Note", city: "Milan", slug: "blue-note" });
    expect(organizer).toHaveLength(1);
    expect(organizer[0]).toMatchObject({ organizer: "Jazz Club", email: "club@example.org" });

    const stored = await server.db.event.findUniqueOrThrow({ where: { id }, include: { venues: true } });
    expect(stored).toMatchObject({
      startLocal: "2030-06-01 20:00:00",
      startUtc: new Date("2030-06-01T18:00:00Z"),
      cost: "€15",
      searchText: "jazz night\u001elate jazz\nlive music",
    });
    expect(stored.venues).toEqual([{ eventId: id, venueId: single(venue).id, position: 0 }]);
  });

  it("fetches an event by id and by slug with its json_ld, over REST and tRPC alike", async () => {
    const created = await events.create({ ...FULL_BODY, slug: "fetch-me" });
    const byId = await server.call("GET /events/{id}", { params: { id: created.id }, status: 200 });
    expect(byId.status).toBe(200);
    const { json_ld, venue, organizer, ...rest } = byId.body;
    const { venue: createdVenue, organizer: createdOrganizer, ...createdRest } = created;
    expect(rest).toEqual(createdRest);
    expect(venue).toEqual({ ...createdVenue, json_ld: single(venue).json_ld });
    expect(organizer).toEqual([{ ...createdOrganizer[0], json_ld: first(organizer).json_ld }]);
    expect(json_ld).toEqual({
      "@context": "http://schema.org",
      "@type": "Event",
      name: "Jazz night",
      description: "Late jazz",
      image: "https://img.example/poster.png",
      url: `${server.origin}/event/fetch-me/`,
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      eventStatus: "https://schema.org/EventScheduled",
      startDate: "2030-06-01T20:00:00+02:00",
      endDate: "2030-06-01T23:30:00+02:00",
      location: single(venue).json_ld,
      organizer: [first(organizer).json_ld],
      performer: "Organization",
      offers: { "@type": "Offer", price: "15", url: `${server.origin}/event/fetch-me/` },
    });
    expect(single(venue).json_ld).toMatchObject({ "@type": "Place", name: "Blue Note" });

    const bySlug = await server.call("GET /events/by-slug/{slug}", { params: { slug: "fetch-me" }, status: 200 });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toEqual(byId.body);
    expect(await server.client().events.get.query({ id: created.id })).toEqual(byId.body);
    expect(await server.client().events.getBySlug.query({ slug: "fetch-me" })).toEqual(byId.body);
  });

  it("creates from a form body with bracketed lists and inline objects", async () => {
    const form =
      "title=Form+event&start_date=2030-01-01+10%3A00&end_date=2030-01-01+11%3A00&featured=0&categories[]=Folk" +
      "&categories[]=Rock&venue[venue]=Form+Hall&venue[zip]=12345&organizer[0][organizer]=Alpha&organizer[1][organizer]=Beta";
    const response = await server.call("POST /events", { as: server.users.administrator, form, status: 201 });
    expect(response.body).toMatchObject({ title: "Form event", featured: false, start_date: "2030-01-01 10:00:00" });
    expect(response.body.categories.map((term) => term.name)).toEqual(["Folk", "Rock"]);
    expect(response.body.venue).toMatchObject({ venue: "Form Hall", zip: "12345" });
    expect(response.body.organizer.map((item) => item.organizer)).toEqual(["Alpha", "Beta"]);
  });

  it("takes the write fields from the query string too, the body winning", async () => {
    const response = await server.call("POST /events", {
      as: server.users.administrator,
      query: { title: "From the query", start_date: "2030-02-01 10:00", end_date: "2030-02-01 12:00" },
      body: { title: "From the body" },
      status: 201,
    });
    expect([response.body.title, response.body.end_date]).toEqual(["From the body", "2030-02-01 12:00:00"]);
  });

  it("applies the defaults of a new event: flags, site zone, permalink website, no cost, no image", async () => {
    const created = await events.create({ title: "Plain", start_date: "2030-03-01", end_date: "2030-03-01 02:00" });
    expect(created).toMatchObject({
      all_day: false,
      featured: false,
      sticky: false,
      hide_from_listings: false,
      ticketed: false,
      show_map: true,
      show_map_link: true,
      timezone: "UTC",
      timezone_abbr: "UTC",
      start_date: "2030-03-01 00:00:00",
      website: `${server.origin}/event/plain/`,
      cost: "",
      cost_details: { currency_symbol: "", currency_code: "", currency_position: "", values: [] },
      image: false,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
    });
  });

  it("reads natural language, ISO dates with offsets and Unix timestamps in the event's zone", async () => {
    const tomorrow = await events.create({
      title: "Natural",
      start_date: "tomorrow 9am",
      end_date: "tomorrow 5pm",
      timezone: "America/New_York",
    });
    expect(tomorrow.start_date).toMatch(/ 09:00:00$/);
    expect(tomorrow.end_date).toMatch(/ 17:00:00$/);
    const iso = await events.create({
      title: "Offsets",
      start_date: "2030-01-10T10:00:00+01:00",
      end_date: 1894356000,
      timezone: "America/New_York",
    });
    expect([iso.start_date, iso.utc_start_date, iso.end_date, iso.timezone_abbr]).toEqual([
      "2030-01-10 04:00:00",
      "2030-01-10 09:00:00",
      "2030-01-11 05:00:00",
      "EST",
    ]);
  });

  it("snaps an all-day event to whole days", async () => {
    const created = await events.create({
      title: "Festival",
      start_date: "2030-07-01 15:00",
      end_date: "2030-07-03 09:00",
      all_day: true,
    });
    expect([created.all_day, created.start_date, created.end_date]).toEqual([
      true,
      "2030-07-01 00:00:00",
      "2030-07-03 23:59:59",
    ]);
  });

  it("renders a list of costs as a range from Free and a decimal comma as a number", async () => {
    const range = await events.create({
      title: "Range",
      start_date: "2030-04-01",
      end_date: "2030-04-02",
      cost: ["0$", "20$", "30$"],
    });
    expect([range.cost, range.cost_details]).toEqual([
      "Free – 30$",
      { currency_symbol: "$", currency_code: "", currency_position: "postfix", values: ["0", "20", "30"] },
    ]);
    const decimal = await events.create({
      title: "Decimal",
      start_date: "2030-04-01",
      end_date: "2030-04-02",
      cost: "25,55",
    });
    expect(decimal.cost_details.values).toEqual(["25.55"]);
  });

  it("links existing venues and organizers by id, {id}, CSV and lists, reusing inline duplicates", async () => {
    const first = await events.create({
      title: "Links 1",
      start_date: "2030-05-01",
      end_date: "2030-05-02",
      venue: { venue: "Shared Hall" },
      organizer: [{ organizer: "One" }, { organizer: "Two" }],
    });
    const [one, two] = first.organizer.map((item) => item.id);
    const shared = single(first.venue).id;
    const second = await events.create({
      title: "Links 2",
      start_date: "2030-05-01",
      end_date: "2030-05-02",
      venue: { id: shared },
      organizer: `${two},${one}`,
    });
    expect(single(second.venue).id).toBe(shared);
    expect(second.organizer.map((item) => item.id)).toEqual([two, one]);
    const third = await events.create({
      title: "Links 3",
      start_date: "2030-05-01",
      end_date: "2030-05-02",
      venue: [shared, { venue: "Second Hall" }],
      organizer: [{ organizer: "one" }, { id: two }, { organizer: "Three" }],
    });
    expect(many(third.venue).map((item) => item.venue)).toEqual(["Shared Hall", "Second Hall"]);
    expect(third.organizer.map((item) => item.id).slice(0, 2)).toEqual([one, two]);
    expect(third.organizer[2]?.organizer).toBe("Three");
  });

  it("links existing terms by id and reuses a name in any case", async () => {
    const original = await events.create({
      title: "Terms 1",
      start_date: "2030-05-01",
      end_date: "2030-05-02",
      categories: ["Opera"],
    });
    const opera = first(original.categories).id;
    const second = await events.create({
      title: "Terms 2",
      start_date: "2030-05-01",
      end_date: "2030-05-02",
      categories: [opera, "OPERA", "Ballet"],
    });
    expect(second.categories.map((term) => term.name)).toEqual(["Ballet", "Opera"]);
    expect(await server.db.category.count({ where: { nameKey: "opera" } })).toBe(1);
  });

  it("reuses an image by its id", async () => {
    const first = await events.create({
      title: "Pictured",
      start_date: "2030-05-01",
      end_date: "2030-05-02",
      image: "https://img.example/shared.jpg",
    });
    const second = await events.create({
      title: "Same picture",
      start_date: "2030-05-01",
      end_date: "2030-05-02",
      image: present(first.image).id,
    });
    expect(second.image).toEqual(first.image);
    expect(await server.db.image.count({ where: { url: "https://img.example/shared.jpg" } })).toBe(1);
  });

  it("makes the slug unique in its language", async () => {
    const first = await events.create({ title: "Same title", start_date: "2030-05-01", end_date: "2030-05-02" });
    const second = await events.create({ title: "Same title", start_date: "2030-05-01", end_date: "2030-05-02" });
    expect([first.slug, second.slug]).toEqual(["same-title", "same-title-2"]);
  });

  it("ignores generated fields sent in the body", async () => {
    const created = await events.create({
      title: "Generated",
      start_date: "2030-05-01 10:00",
      end_date: "2030-05-01 11:00",
      url: "http://evil.example",
      rest_url: "http://evil.example",
      utc_start_date: "1999-01-01 00:00:00",
      timezone_abbr: "XYZ",
      cost_details: { values: [1] },
      id: 999_999,
    });
    expect(created).toMatchObject({
      url: `${server.origin}/event/generated/`,
      utc_start_date: "2030-05-01 10:00:00",
      timezone_abbr: "UTC",
    });
    expect(created.id).not.toBe(999_999);
  });

  it("creates through tRPC with typed input and the same output", async () => {
    const created = await server.client(server.users.editor).events.create.mutate({
      title: "Over tRPC",
      start_date: "2030-08-01 10:00:00",
      end_date: "2030-08-01 12:00:00",
      featured: true,
      cost: 12,
    });
    expect(created).toMatchObject({
      title: "Over tRPC",
      featured: true,
      cost: "12",
      author: String(server.users.editor.id),
    });
    const fetched = await server.call("GET /events/{id}", { params: { id: created.id } });
    const { json_ld: _jsonLd, ...rest } = fetched.body;
    expect(rest).toEqual(created);
  });
});

describe.each(PROVIDERS)("updating and deleting events (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const admin = () => server.users.administrator;
  const base = { start_date: "2030-09-01 10:00:00", end_date: "2030-09-01 12:00:00" };

  it("changes only the fields sent and keeps every flag and link", async () => {
    const created = await events.create({
      ...base,
      title: "Keep me",
      featured: true,
      all_day: false,
      sticky: true,
      hide_from_listings: true,
      show_map: false,
      cost: "10$",
      categories: ["Kept"],
      venue: { venue: "Kept Hall" },
    });
    const response = await server.call("POST /events/{id}", {
      params: { id: created.id },
      as: admin(),
      body: { title: "Renamed" },
      status: 200,
    });
    expect(response.status).toBe(200);
    const { modified, modified_utc, ...after } = response.body;
    const { modified: _m, modified_utc: _u, ...before } = created;
    expect(after).toEqual({ ...before, title: "Renamed" });
    expect(modified).toMatch(WALL_TIME);
    expect(modified_utc).toMatch(WALL_TIME);
  });

  it("serves the update on POST, PUT and PATCH, by id and by slug", async () => {
    const created = await events.create({ ...base, title: "Methods", slug: "methods" });
    for (const [index, method] of (["POST", "PUT", "PATCH"] as const).entries()) {
      const byId = await server.call(`${method} /events/{id}`, {
        params: { id: created.id },
        as: admin(),
        body: { excerpt: `id ${index}` },
        status: 200,
      });
      expect([method, byId.body.excerpt]).toEqual([method, `id ${index}`]);
      const bySlug = await server.call(`${method} /events/by-slug/{slug}`, {
        params: { slug: "methods" },
        as: admin(),
        body: { excerpt: `slug ${index}` },
        status: 200,
      });
      expect([method, bySlug.body.excerpt, bySlug.body.slug]).toEqual([method, `slug ${index}`, "methods"]);
    }
  });

  it("renames the slug by id, keeping it unique", async () => {
    await events.create({ ...base, title: "Taken", slug: "taken" });
    const created = await events.create({ ...base, title: "Mover" });
    const response = await server.call("PATCH /events/{id}", {
      params: { id: created.id },
      as: admin(),
      body: { slug: "taken" },
    });
    expect(response.body.slug).toBe("taken-2");
  });

  it.each([
    ["0", 0],
    ["an empty string", ""],
    ["an empty list", []],
    ["null", null],
  ])("unlinks venues, organizers, categories and tags sent as %s", async (_name, empty) => {
    const created = await events.create({
      ...base,
      title: "Linked",
      venue: { venue: "Unlinked Hall" },
      organizer: [{ organizer: "Unlinked Org" }],
      categories: ["Unlinked"],
      tags: ["unlinked"],
    });
    const response = await server.call("PATCH /events/{id}", {
      params: { id: created.id },
      as: admin(),
      body: { venue: empty, organizer: empty, categories: empty, tags: empty },
      status: 200,
    });
    expect([response.body.venue, response.body.organizer, response.body.categories, response.body.tags]).toEqual([
      [],
      [],
      [],
      [],
    ]);
    expect(await server.db.eventVenue.count({ where: { eventId: created.id } })).toBe(0);
  });

  it("replaces the links that are sent", async () => {
    const created = await events.create({ ...base, title: "Relinked", organizer: [{ organizer: "Old Org" }] });
    const response = await server.call("PUT /events/{id}", {
      params: { id: created.id },
      as: admin(),
      body: { organizer: [{ organizer: "New Org" }], tags: "fresh" },
    });
    expect(response.body.organizer.map((item) => item.organizer)).toEqual(["New Org"]);
    expect(response.body.tags.map((term) => term.name)).toEqual(["fresh"]);
  });

  it("re-derives the UTC dates and the abbreviation when the zone changes", async () => {
    const created = await events.create({ ...base, title: "Zoned", timezone: "Europe/Rome" });
    expect([created.utc_start_date, created.timezone_abbr]).toEqual(["2030-09-01 08:00:00", "CEST"]);
    const response = await server.call("PATCH /events/{id}", {
      params: { id: created.id },
      as: admin(),
      body: { timezone: "America/New_York" },
    });
    expect(response.body).toMatchObject({
      timezone: "America/New_York",
      timezone_abbr: "EDT",
      start_date: "2030-09-01 10:00:00",
      utc_start_date: "2030-09-01 14:00:00",
      utc_end_date: "2030-09-01 16:00:00",
    });
  });

  it("moves the dates, reading them in the stored zone", async () => {
    const created = await events.create({ ...base, title: "Moved", timezone: "Europe/Rome" });
    const response = await server.call("PATCH /events/{id}", {
      params: { id: created.id },
      as: admin(),
      body: { end_date: "2030-09-02 01:00:00" },
    });
    expect([response.body.start_date, response.body.end_date, response.body.utc_end_date]).toEqual([
      "2030-09-01 10:00:00",
      "2030-09-02 01:00:00",
      "2030-09-01 23:00:00",
    ]);
  });

  it("sets and removes the password", async () => {
    const created = await events.create({ ...base, title: "Locked later" });
    const params = { id: created.id };
    await server.call("PATCH /events/{id}", { params, as: admin(), body: { password: "open sesame" } });
    await server.fail("GET /events/{id}", 403, { params });
    await server.call("PATCH /events/{id}", { params, as: admin(), body: { password: "" } });
    await server.call("GET /events/{id}", { params, status: 200 });
  });

  it("updates through tRPC", async () => {
    const created = await events.create({ ...base, title: "tRPC update" });
    const updated = await server.client(admin()).events.update.mutate({ id: created.id, featured: true });
    expect([updated.featured, updated.title]).toEqual([true, "tRPC update"]);
  });

  it("moves a deleted event to the trash, answers with it, and then answers 403 and 410", async () => {
    const created = await events.create({ ...base, title: "Trash me", venue: { venue: "Trash Hall" } });
    const response = await server.call("DELETE /events/{id}", { params: { id: created.id }, as: admin(), status: 200 });
    expect(response.status).toBe(200);
    const { modified: _m, modified_utc: _u, ...deleted } = response.body;
    const { modified: _cm, modified_utc: _cu, ...before } = created;
    expect(deleted).toEqual({ ...before, status: "trash" });
    expect((await server.fail("GET /events/{id}", 403, { params: { id: created.id } })).body.code).toBe(
      "event-no-longer-available",
    );
    const again = await server.fail("DELETE /events/{id}", 410, { params: { id: created.id }, as: admin() });
    expect(again.body).toEqual({
      code: "event-is-in-trash",
      message: "The event is already trashed",
      data: { status: 410 },
    });
  });

  it("deletes permanently with force, links included, answering with the event as it was", async () => {
    const created = await events.create({
      ...base,
      title: "Gone",
      venue: { venue: "Gone Hall" },
      organizer: [{ organizer: "Gone Org" }],
      categories: ["Gone"],
    });
    const params = { id: created.id };
    const response = await server.call("DELETE /events/{id}", {
      params,
      as: admin(),
      query: { force: "true" },
      status: 200,
    });
    expect(response.body).toEqual(created);
    expect(await server.db.event.findUnique({ where: { id: created.id } })).toBeNull();
    expect(await server.db.eventVenue.count({ where: { eventId: created.id } })).toBe(0);
    expect(await server.db.eventOrganizer.count({ where: { eventId: created.id } })).toBe(0);
    expect(await server.db.eventCategory.count({ where: { eventId: created.id } })).toBe(0);
    expect(await server.db.venue.count({ where: { id: single(created.venue).id } })).toBe(1);
    await server.fail("GET /events/{id}", 404, { params });
  });

  it("deletes by slug and through tRPC", async () => {
    const bySlug = await events.create({ ...base, title: "Slug delete", slug: "slug-delete" });
    const response = await server.call("DELETE /events/by-slug/{slug}", {
      params: { slug: "slug-delete" },
      as: admin(),
      status: 200,
    });
    expect([response.body.id, response.body.status]).toEqual([bySlug.id, "trash"]);
    const viaTrpc = await events.create({ ...base, title: "tRPC delete" });
    const deleted = await server.client(admin()).events.delete.mutate({ id: viaTrpc.id });
    expect(deleted.status).toBe("trash");
  });

  it("keeps a series: children of a parent event", async () => {
    const parent = await events.create({ ...base, title: "Series" });
    const child = await events.create({ ...base, title: "Episode", post_parent: parent.id });
    expect(child.post_parent).toBe(parent.id);
    const response = await server.call("PATCH /events/{id}", {
      params: { id: child.id },
      as: admin(),
      body: { post_parent: 0 },
    });
    expect(response.body.post_parent).toBe(0);
  });
});

describe.each(PROVIDERS)("languages and translations of events (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const base = { start_date: "2030-10-01 10:00:00", end_date: "2030-10-01 12:00:00" };

  it("creates in the language of the prefix or ml_language and joins a translation group", async () => {
    const english = await events.create({ ...base, title: "Concert", slug: "concert" });
    const german = await server.call("POST /events", {
      base: `/de${BASE}`,
      as: server.users.administrator,
      body: { ...base, title: "Konzert", slug: "concert", translation_of: english.id },
      status: 201,
    });
    expect(german.body).toMatchObject({
      language: "de",
      slug: "concert",
      translations: { en: english.id },
      url: `${server.origin}/de/event/concert/`,
      rest_url: `${server.origin}/de${EVENTS}/${german.body.id}`,
    });
    const french = await events.create({
      ...base,
      title: "Concert FR",
      translation_of: german.body.id,
      ml_language: "fr",
    });
    expect(french.translations).toEqual({ en: english.id, de: german.body.id });
    expect((await server.call("GET /events/{id}", { params: { id: english.id } })).body.translations).toEqual({
      de: german.body.id,
      fr: french.id,
    });
  });

  it("resolves a slug in the request's language and reaches any language by id", async () => {
    const english = await events.create({ ...base, title: "Opera", slug: "opera" });
    const french = await events.create({ ...base, title: "Opéra", slug: "opera", ml_language: "fr" });
    const bySlug = (base?: string, query?: RestRequest["query"]) =>
      server.call("GET /events/by-slug/{slug}", { params: { slug: "opera" }, base, query });
    expect((await bySlug()).body.id).toBe(english.id);
    expect((await bySlug(`/fr${BASE}`)).body.id).toBe(french.id);
    expect((await bySlug(`/de${BASE}`, { ml_language: "fr" })).body.id).toBe(french.id);
    expect((await server.call("GET /events/{id}", { params: { id: french.id } })).body.language).toBe("fr");
  });

  it("lists only the request's language", async () => {
    const english = await events.create({ ...base, title: "Polyglot en", categories: ["Polyglot"] });
    const german = await events.create({ ...base, title: "Polyglot de", ml_language: "de", categories: ["Polyglot"] });
    const query = { start_date: "2030-10-01", end_date: "2030-10-02", search: "polyglot" };
    expect(await events.ids(query)).toEqual([english.id]);
    const prefixed = await server.call("GET /events", { base: `/de${BASE}`, query });
    expect(prefixed.body.events.map((event) => event.id)).toEqual([german.id]);
    expect(prefixed.body.rest_url.startsWith(`${server.origin}/de${EVENTS}/?`)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import type { OrganizerOutput } from "../organizers/organizer.schemas.ts";
import type { EmbeddedTerm } from "../terms/term.schemas.ts";
import { REDACTED_EVENT_DETAILS } from "../testing/expectations.ts";
import { eventRecord } from "../testing/factories.ts";
import type { VenueOutput } from "../venues/venue.schemas.ts";
import { eventDetailOutput, eventOutput } from "./event.output.schemas.ts";
import { type EventRelations, eventListLinks, presentEvent, presentEventDetail } from "./event.present.ts";
import type { EventRow } from "./event.rows.ts";
import { eventListQuery } from "./event.schemas.ts";

const LINKS = { apiRoot: "https://cal.example/de/cal/events/v1" };

function row(overrides: Partial<EventRow> = {}): EventRow {
  return eventRecord({
    id: 12,
    title: "Opening night",
    description: "<p>The <b>first</b> night</p>",
    authorId: 3,
    language: "de",
    postDate: "2017-01-05 15:23:36",
    postDateUtc: new Date("2017-01-05T14:23:36Z"),
    modified: "2017-01-06 10:00:00",
    modifiedUtc: new Date("2017-01-06T09:00:00Z"),
    startLocal: "2018-01-05 14:00:00",
    endLocal: "2018-01-05 16:30:00",
    startUtc: new Date("2018-01-05T19:00:00Z"),
    endUtc: new Date("2018-01-05T21:30:00Z"),
    timezone: "America/New_York",
    featured: true,
    showMapLink: false,
    cost: "$23",
    imageId: 4,
    image: { id: 4, url: "https://img.example/poster.JPG" },
    venues: [{ venueId: 7 }],
    organizers: [{ organizerId: 9 }, { organizerId: 8 }],
    categories: [{ categoryId: 2 }, { categoryId: 1 }],
    ...overrides,
  });
}

function term(id: number, name: string): EmbeddedTerm {
  return {
    id,
    name,
    slug: name.toLowerCase(),
    term_group: 0,
    term_taxonomy_id: id,
    taxonomy: "tribe_events_cat",
    description: "",
    parent: 0,
    count: 1,
    filter: "raw",
    urls: { self: `${LINKS.apiRoot}/categories/${id}`, collection: `${LINKS.apiRoot}/categories` },
    language: "de",
  };
}

/** The status and dates of the embedded venues and organizers. */
const POSTED = {
  status: "publish",
  date: "2017-01-01 00:00:00",
  date_utc: "2017-01-01 00:00:00",
  modified: "2017-01-01 00:00:00",
  modified_utc: "2017-01-01 00:00:00",
};

function venue(id: number, name: string): VenueOutput {
  return {
    id,
    author: "3",
    ...POSTED,
    url: `https://cal.example/de/venue/${id}/`,
    venue: name,
    slug: name.toLowerCase(),
    json_ld: { "@context": "http://schema.org", "@type": "Place", name, url: `https://cal.example/de/venue/${id}/` },
    show_map: true,
    show_map_link: true,
    global_id: `cal.example?id=${id}`,
    global_id_lineage: [`cal.example?id=${id}`],
    language: "de",
    translations: {},
  };
}

function organizer(id: number, name: string): OrganizerOutput {
  return {
    id,
    ...POSTED,
    url: `https://cal.example/de/organizer/${id}/`,
    organizer: name,
    slug: name.toLowerCase(),
    global_id: `cal.example?id=${id}`,
    global_id_lineage: [`cal.example?id=${id}`],
    language: "de",
    translations: {},
  };
}

const RELATIONS: EventRelations = {
  venues: new Map([[7, venue(7, "Hall")]]),
  organizers: new Map([
    [8, organizer(8, "Eight")],
    [9, organizer(9, "Nine")],
  ]),
  categories: new Map([
    [1, term(1, "b-side")],
    [2, term(2, "A-side")],
  ]),
  tags: new Map(),
  translations: new Map([[12, { en: 11 }]]),
  series: new Map(),
};

describe("presentEvent", () => {
  it("shapes an event as the reference does", () => {
    const event = presentEvent(row(), RELATIONS, LINKS, { redacted: false });
    expect(eventOutput.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      id: 12,
      global_id: "cal.example?id=12",
      global_id_lineage: ["cal.example?id=12"],
      author: "3",
      date: "2017-01-05 15:23:36",
      date_utc: "2017-01-05 14:23:36",
      modified_utc: "2017-01-06 09:00:00",
      url: "https://cal.example/de/event/opening-night/",
      rest_url: "https://cal.example/de/cal/events/v1/events/12",
      description: "<p>The <b>first</b> night</p>",
      image: { url: "https://img.example/poster.JPG", id: 4, extension: "jpg", width: null, height: null, sizes: {} },
      start_date: "2018-01-05 14:00:00",
      start_date_details: { year: "2018", month: "01", day: "05", hour: "14", minutes: "00", seconds: "00" },
      utc_start_date: "2018-01-05 19:00:00",
      utc_end_date_details: { year: "2018", month: "01", day: "05", hour: "21", minutes: "30", seconds: "00" },
      timezone: "America/New_York",
      timezone_abbr: "EST",
      cost: "$23",
      cost_details: { currency_symbol: "$", currency_code: "", currency_position: "prefix", values: ["23"] },
      website: "https://cal.example/de/event/opening-night/",
      show_map: true,
      show_map_link: false,
      featured: true,
      post_parent: 0,
      language: "de",
      translations: { en: 11 },
    });
  });

  it("embeds one venue as an object, organizers in their order and terms by name", () => {
    const event = presentEvent(row(), RELATIONS, LINKS, { redacted: false });
    expect(event.venue).toEqual(venue(7, "Hall"));
    expect(event.organizer.map((item) => item.id)).toEqual([9, 8]);
    expect(event.categories.map((item) => item.name)).toEqual(["A-side", "b-side"]);
  });

  it("lists several venues, and gives [] for none or for venues that are gone", () => {
    const relations = { ...RELATIONS, venues: new Map([...RELATIONS.venues, [5, venue(5, "Club")]]) };
    const several = presentEvent(row({ venues: [{ venueId: 5 }, { venueId: 7 }] }), relations, LINKS, {
      redacted: false,
    });
    expect(Array.isArray(several.venue) && several.venue.map((item) => item.id)).toEqual([5, 7]);
    expect(presentEvent(row({ venues: [] }), RELATIONS, LINKS, { redacted: false }).venue).toEqual([]);
    expect(presentEvent(row({ venues: [{ venueId: 99 }] }), RELATIONS, LINKS, { redacted: false }).venue).toEqual([]);
  });

  it("keeps the website when set and gives false without an image", () => {
    const event = presentEvent(row({ website: "http://tri.be", image: null }), RELATIONS, LINKS, { redacted: false });
    expect([event.website, event.image]).toEqual(["http://tri.be", false]);
  });

  it("blanks the protected details of a redacted event but keeps its identity and dates", () => {
    const event = presentEvent(row({ password: "secret", excerpt: "short" }), RELATIONS, LINKS, { redacted: true });
    expect(eventOutput.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      id: 12,
      title: "Opening night",
      slug: "opening-night",
      status: "publish",
      start_date: "2018-01-05 14:00:00",
      url: "https://cal.example/de/event/opening-night/",
      ...REDACTED_EVENT_DETAILS,
    });
  });
});

describe("presentEventDetail", () => {
  it("adds the schema.org Event with the venue as location and the organizers", () => {
    const detail = presentEventDetail(row(), RELATIONS, LINKS, null);
    expect(eventDetailOutput.parse(detail)).toEqual(detail);
    expect(detail.json_ld).toEqual({
      "@context": "http://schema.org",
      "@type": "Event",
      name: "Opening night",
      description: "The first night",
      image: "https://img.example/poster.JPG",
      url: "https://cal.example/de/event/opening-night/",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      eventStatus: "https://schema.org/EventScheduled",
      startDate: "2018-01-05T14:00:00-05:00",
      endDate: "2018-01-05T16:30:00-05:00",
      location: venue(7, "Hall").json_ld,
      performer: "Organization",
      offers: { "@type": "Offer", price: "23", url: "https://cal.example/de/event/opening-night/" },
    });
  });
});

describe("eventListLinks", () => {
  const query = (raw: Record<string, unknown>) => eventListQuery.parse(raw);
  const echo = { start_date: "2018-01-01 00:00:00", end_date: "2018-01-31 23:59:59" };
  const base = "https://cal.example/de/cal/events/v1/events/";

  it("echoes the effective query and links the next page only when it exists", () => {
    expect(eventListLinks(LINKS, query({ per_page: "3", categories: "5,jazz", featured: "0" }), echo, 7)).toEqual({
      rest_url: `${base}?page=1&per_page=3&start_date=2018-01-01+00%3A00%3A00&end_date=2018-01-31+23%3A59%3A59&categories=5%2Cjazz&featured=0`,
      next_rest_url: `${base}?page=2&per_page=3&start_date=2018-01-01+00%3A00%3A00&end_date=2018-01-31+23%3A59%3A59&categories=5%2Cjazz&featured=0`,
      total: 7,
      total_pages: 3,
    });
  });

  it("links page 1 without page from page 2, and no next page from the last", () => {
    const links = eventListLinks(LINKS, query({ page: "2", per_page: "5" }), {}, 7);
    expect(links).toEqual({
      rest_url: `${base}?page=2&per_page=5`,
      previous_rest_url: `${base}?per_page=5`,
      total: 7,
      total_pages: 2,
    });
    expect(eventListLinks(LINKS, query({ page: "3", per_page: "2" }), {}, 7).previous_rest_url).toBe(
      `${base}?page=2&per_page=2`,
    );
  });

  it("keeps an explicit ml_language and never echoes the password", () => {
    const links = eventListLinks({ ...LINKS, languageParam: "fr" }, query({ password: "secret" }), {}, 0);
    expect(links).toEqual({ rest_url: `${base}?page=1&per_page=9&ml_language=fr`, total: 0, total_pages: 0 });
  });
});

import { describe, expect, it } from "vitest";
import { buildEventWhere, type EventFilter, eventListOrder, orderByStartThenDistance } from "./event.where.ts";

const BASE: EventFilter = {
  language: "en",
  status: { status: "publish" },
  dates: {},
  searchWords: [],
  protectedText: "all",
};

describe("buildEventWhere", () => {
  it("always limits to the language and the visible statuses, and leaves out hidden events", () => {
    expect(buildEventWhere(BASE)).toEqual({
      AND: [{ language: "en" }, { status: "publish" }, { hideFromListings: false }],
    });
  });

  it("compares the date bounds with the start and end instants, an end bound bounding the start too", () => {
    const a = new Date("2018-01-01T00:00:00Z");
    const b = new Date("2018-01-02T00:00:00Z");
    const c = new Date("2018-01-03T00:00:00Z");
    const where = buildEventWhere({
      ...BASE,
      dates: { startFrom: a, startAfter: a, startBefore: c, endAfter: b, endBefore: c, endUntil: c },
    });
    expect(where.AND).toEqual([
      { language: "en" },
      { status: "publish" },
      { hideFromListings: false },
      { startUtc: { gte: a, gt: a, lt: c, lte: c } },
      { endUtc: { gt: b, lt: c, lte: c } },
    ]);
    const endsOnly = buildEventWhere({ ...BASE, dates: { endBefore: b, endUntil: c } });
    expect((endsOnly.AND as unknown[]).slice(3)).toEqual([
      { startUtc: { lt: b, lte: c } },
      { endUtc: { lt: b, lte: c } },
    ]);
  });

  it("needs every search word", () => {
    expect((buildEventWhere({ ...BASE, searchWords: ["foo", "bar"] }).AND as unknown[]).slice(3)).toEqual([
      { searchText: { contains: "foo" } },
      { searchText: { contains: "bar" } },
    ]);
  });

  it("matches any of the listed terms, venues and organizers, each kind AND-ed with the others", () => {
    const where = buildEventWhere({
      ...BASE,
      categoryIds: [1, 2],
      tagIds: [3],
      venueIds: [4],
      organizerIds: [5, 6],
    });
    expect((where.AND as unknown[]).slice(3)).toEqual([
      { categories: { some: { categoryId: { in: [1, 2] } } } },
      { tags: { some: { tagId: { in: [3] } } } },
      { venues: { some: { venueId: { in: [4] } } } },
      { organizers: { some: { organizerId: { in: [5, 6] } } } },
    ]);
  });

  it("filters the flags, the parent and the ids", () => {
    const where = buildEventWhere({ ...BASE, featured: false, ticketed: true, postParent: 7, include: [8, 9] });
    expect((where.AND as unknown[]).slice(3)).toEqual([
      { featured: false },
      { ticketed: true },
      { parentId: 7 },
      { id: { in: [8, 9] } },
    ]);
  });

  it("keeps events with or without a venue that has coordinates, or near venues", () => {
    const hasCoordinates = { venue: { geoLat: { not: null }, geoLng: { not: null } } };
    expect((buildEventWhere({ ...BASE, geoloc: true }).AND as unknown[]).at(-1)).toEqual({
      venues: { some: hasCoordinates },
    });
    expect((buildEventWhere({ ...BASE, geoloc: false }).AND as unknown[]).at(-1)).toEqual({
      venues: { none: hasCoordinates },
    });
    expect((buildEventWhere({ ...BASE, nearVenueIds: [] }).AND as unknown[]).at(-1)).toEqual({
      venues: { some: { venueId: { in: [] } } },
    });
    expect(
      (buildEventWhere({ ...BASE, nearVenueIds: [4, 9], nearEventIds: [12, 30] }).AND as unknown[]).at(-1),
    ).toEqual({ id: { in: [12, 30] } });
  });
});

describe("eventListOrder", () => {
  it("orders by start, post date and id; with include by post date and id", () => {
    expect(eventListOrder({})).toEqual([{ startUtc: "asc" }, { postDateUtc: "asc" }, { id: "asc" }]);
    expect(eventListOrder({ include: [1] })).toEqual([{ postDateUtc: "asc" }, { id: "asc" }]);
  });
});

describe("orderByStartThenDistance", () => {
  const at = (iso: string) => new Date(iso);
  it("puts the nearest venue first among equal starts, then post date and id", () => {
    const posted = at("2018-01-01T00:00:00Z");
    const candidates = [
      { id: 1, startUtc: at("2018-02-01T10:00:00Z"), postDateUtc: posted, venueIds: [10] },
      { id: 2, startUtc: at("2018-02-01T10:00:00Z"), postDateUtc: posted, venueIds: [11, 12] },
      { id: 3, startUtc: at("2018-02-01T09:00:00Z"), postDateUtc: posted, venueIds: [10] },
      { id: 4, startUtc: at("2018-02-01T10:00:00Z"), postDateUtc: posted, venueIds: [11] },
      { id: 5, startUtc: at("2018-02-01T10:00:00Z"), postDateUtc: at("2017-01-01T00:00:00Z"), venueIds: [11] },
    ];
    const distances = new Map([
      [10, 5],
      [11, 20],
      [12, 1],
    ]);
    expect(orderByStartThenDistance(candidates, distances).map((candidate) => candidate.id)).toEqual([3, 2, 1, 5, 4]);
  });
});

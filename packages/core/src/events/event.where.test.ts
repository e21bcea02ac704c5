import { describe, expect, it } from "vitest";
import {
  buildEventWhere,
  type EventFilter,
  eventListOrder,
  nearPointWhere,
  orderByStartThenDistance,
} from "./event.where.ts";

const BASE: EventFilter = {
  language: "en",
  status: { status: "publish" },
  dates: {},
  selected: [],
  detailsShown: undefined,
  order: "start",
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

  it("adds the resolved filters, then keeps to the events whose details the caller sees", () => {
    const selected = [{ featured: true }, { categories: { some: { categoryId: { in: [1, 2] } } } }];
    const detailsShown = { OR: [{ password: "" }, { authorId: 7 }] };
    expect((buildEventWhere({ ...BASE, selected, detailsShown }).AND as unknown[]).slice(3)).toEqual([
      ...selected,
      detailsShown,
    ]);
  });

  it("states the venues near a point, kept apart for the page's own statement, as their relation filter", () => {
    const selected = [{ featured: true }];
    expect((buildEventWhere({ ...BASE, selected, nearVenueIds: [4, 9] }).AND as unknown[]).slice(3)).toEqual([
      ...selected,
      { venues: { some: { venueId: { in: [4, 9] } } } },
    ]);
    expect((buildEventWhere({ ...BASE, nearVenueIds: [] }).AND as unknown[]).slice(3)).toEqual([
      { venues: { some: { venueId: { in: [] } } } },
    ]);
  });
});

describe("nearPointWhere", () => {
  it("keeps the events at the venues near a point, by their ids when they are listed", () => {
    expect(nearPointWhere([4, 9], undefined)).toEqual({ venues: { some: { venueId: { in: [4, 9] } } } });
    expect(nearPointWhere([], undefined)).toEqual({ venues: { some: { venueId: { in: [] } } } });
    expect(nearPointWhere([4, 9], [12, 30])).toEqual({ id: { in: [12, 30] } });
  });
});

describe("eventListOrder", () => {
  it("orders by start, post date and id; with include by post date and id", () => {
    expect(eventListOrder({ order: "start" })).toEqual([{ startUtc: "asc" }, { postDateUtc: "asc" }, { id: "asc" }]);
    expect(eventListOrder({ order: "post-date" })).toEqual([{ postDateUtc: "asc" }, { id: "asc" }]);
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

import { describe, expect, it } from "vitest";
import { termRecord } from "../testing/factories.ts";
import { buildTermWhere, termEventsNamedBy } from "./term.filters.ts";
import { termListQuery } from "./term.schemas.ts";
import {
  HAS_PUBLISHED_EVENTS,
  nameKeyOf,
  sortByCount,
  sortByInclude,
  termSearchWhere,
  termSort,
} from "./term.where.ts";

const query = (input: Record<string, unknown> = {}) => termListQuery.parse(input);

describe("nameKeyOf", () => {
  it("folds case, accents and spaces", () => {
    expect(nameKeyOf("  Café   Concert ")).toBe("cafe concert");
  });

  it("maps LIKE's special characters to characters LIKE matches literally", () => {
    expect(nameKeyOf("100%_a\\b")).not.toMatch(/[%_\\]/);
    expect(nameKeyOf("100%")).not.toBe(nameKeyOf("100_"));
  });
});

describe("termSearchWhere", () => {
  it("matches the normalized name or the lower-cased slug", () => {
    expect(termSearchWhere("Fête")).toEqual({
      OR: [{ nameKey: { contains: "fete" } }, { slug: { contains: "fête" } }],
    });
  });

  it("leaves the slug out when the search holds a LIKE special character (no slug has one)", () => {
    expect(termSearchWhere("50%")).toEqual({ OR: [{ nameKey: { contains: nameKeyOf("50%") } }] });
  });
});

describe("buildTermWhere", () => {
  it("keeps only terms of the language with a published event by default", () => {
    expect(buildTermWhere(query(), "de")).toEqual({ AND: [HAS_PUBLISHED_EVENTS, { language: "de" }] });
  });

  it("drops the published-event condition with hide_empty=false", () => {
    expect(buildTermWhere(query({ hide_empty: "false" }), "en")).toEqual({ AND: [{ language: "en" }] });
  });

  it("adds every filter that is given", () => {
    const where = buildTermWhere(
      query({
        hide_empty: "0",
        search: "rock",
        include: "1,2",
        exclude: [3],
        parent: "4",
        post: "5",
        slug: "Rock Music",
      }),
      "fr",
    );
    expect(where).toEqual({
      AND: [
        termSearchWhere("rock"),
        { id: { notIn: [3] } },
        { id: { in: [1, 2] } },
        { parentId: 4 },
        { events: { some: { eventId: 5 } } },
        { slug: { in: ["Rock Music", "rock-music"] } },
        { language: "fr" },
      ],
    });
  });

  it("prefers event over its alias post", () => {
    expect(buildTermWhere(query({ hide_empty: false, post: 5, event: 6 }), "en")).toEqual({
      AND: [{ events: { some: { eventId: 6 } } }, { language: "en" }],
    });
    expect(termEventsNamedBy(query({ post: 5, event: 6 }))).toEqual([{ param: "event", id: 6 }]);
    expect(termEventsNamedBy(query({ post: 5 }))).toEqual([{ param: "post", id: 5 }]);
  });
});

describe("termSort", () => {
  it("sorts by name ascending, then id, by default", () => {
    expect(termSort({})).toEqual({ kind: "database", orderBy: [{ nameKey: "asc" }, { id: "asc" }] });
  });

  it("sorts by id, slug or name in the given direction", () => {
    expect(termSort({ orderby: "id", order: "desc" })).toEqual({ kind: "database", orderBy: [{ id: "desc" }] });
    expect(termSort({ orderby: "slug", order: "desc" })).toEqual({
      kind: "database",
      orderBy: [{ slug: "desc" }, { id: "desc" }],
    });
    expect(termSort({ orderby: "name", order: "desc" })).toEqual({
      kind: "database",
      orderBy: [{ nameKey: "desc" }, { id: "desc" }],
    });
  });

  it("sorts by count or include order in memory", () => {
    expect(termSort({ orderby: "count" })).toEqual({ kind: "count", direction: "asc" });
    expect(termSort({ orderby: "include", include: [3, 1], order: "desc" })).toEqual({
      kind: "include",
      ids: [3, 1],
      direction: "desc",
    });
  });

  it("falls back to name when orderby=include comes without include", () => {
    expect(termSort({ orderby: "include" })).toEqual({
      kind: "database",
      orderBy: [{ nameKey: "asc" }, { id: "asc" }],
    });
  });
});

describe("in-memory sorting", () => {
  const rows = [termRecord({ id: 1, name: "b" }), termRecord({ id: 2, name: "A" }), termRecord({ id: 3, name: "c" })];

  it("sorts by count, then name, then id", () => {
    const counts = new Map([
      [1, 2],
      [3, 2],
    ]);
    expect(sortByCount(rows, counts, "asc").map((term) => term.id)).toEqual([2, 1, 3]);
    expect(sortByCount(rows, counts, "desc").map((term) => term.id)).toEqual([3, 1, 2]);
  });

  it("sorts in the order of the include list", () => {
    expect(sortByInclude(rows, [3, 1, 2], "asc").map((term) => term.id)).toEqual([3, 1, 2]);
    expect(sortByInclude(rows, [3, 1, 2], "desc").map((term) => term.id)).toEqual([2, 1, 3]);
  });
});

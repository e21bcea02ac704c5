import { describe, expect, it } from "vitest";
import { eventSearchText, searchWordWhere, TITLE_END } from "./event.search.ts";

describe("eventSearchText", () => {
  it("stores the normalized title, the title end, then the excerpt and the description without markup", () => {
    expect(eventSearchText({ title: "Jazz Night", excerpt: "Late", description: "<p>Live <b>Music</b></p>" })).toBe(
      `jazz night${TITLE_END}late\nlive music`,
    );
  });

  it("never lets a field contain the title end", () => {
    const text = eventSearchText({ title: "a", excerpt: `b${TITLE_END}c`, description: TITLE_END });
    expect(text.split(TITLE_END)).toHaveLength(2);
  });
});

describe("searchWordWhere", () => {
  it("matches anywhere when every protected text is open", () => {
    expect(searchWordWhere("jazz", "all")).toEqual({ searchText: { contains: "jazz" } });
  });

  it("matches only the title of protected events for others", () => {
    expect(searchWordWhere("jazz", "none")).toEqual({
      OR: [
        { password: "", searchText: { contains: "jazz" } },
        { password: { not: "" }, searchText: { contains: `jazz%${TITLE_END}` } },
      ],
    });
  });

  it("also matches anywhere in the protected events the actor may edit", () => {
    expect(searchWordWhere("jazz", { authorId: 7 })).toEqual({
      OR: [
        { password: "", searchText: { contains: "jazz" } },
        { password: { not: "" }, searchText: { contains: `jazz%${TITLE_END}` } },
        { AND: [{ authorId: 7 }, { searchText: { contains: "jazz" } }] },
      ],
    });
  });
});

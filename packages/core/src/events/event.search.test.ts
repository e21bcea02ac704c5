import { describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles.ts";
import { eventSearchText, protectedTextAccess, searchWordWhere, TITLE_END } from "./event.search.ts";

const user = (role: "subscriber" | "contributor" | "author" | "editor" | "administrator"): Actor => ({
  kind: "user",
  id: 7,
  login: role,
  role,
});

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

describe("protectedTextAccess", () => {
  it("opens every protected text to editors, own editable ones to authors and contributors, none to others", () => {
    expect(protectedTextAccess({ kind: "anonymous" })).toBe("title");
    expect(protectedTextAccess(user("subscriber"))).toBe("title");
    expect(protectedTextAccess(user("contributor"))).toEqual({
      authorId: 7,
      status: { notIn: ["publish", "future", "private"] },
    });
    expect(protectedTextAccess(user("author"))).toEqual({ authorId: 7 });
    expect(protectedTextAccess(user("editor"))).toBe("all");
    expect(protectedTextAccess(user("administrator"))).toBe("all");
  });
});

describe("searchWordWhere", () => {
  it("matches anywhere when every protected text is open", () => {
    expect(searchWordWhere("jazz", "all")).toEqual({ searchText: { contains: "jazz" } });
  });

  it("matches only the title of protected events for others", () => {
    expect(searchWordWhere("jazz", "title")).toEqual({
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

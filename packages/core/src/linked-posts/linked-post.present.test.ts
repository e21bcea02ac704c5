import { describe, expect, it } from "vitest";
import { listLinks, nonEmptyFields } from "./linked-post.present.ts";
import { linkedPostListQuery } from "./linked-post.schemas.ts";

const links = { apiRoot: "https://example.org/de/cal/events/v1" };

describe("nonEmptyFields", () => {
  it("leaves out empty strings, null, undefined and false, and keeps zero", () => {
    expect(nonEmptyFields({ a: "", b: null, c: undefined, d: false, e: 0, f: "x" })).toEqual({ e: 0, f: "x" });
  });
});

describe("listLinks", () => {
  it("echoes the filters and points to the neighbouring pages", () => {
    const query = linkedPostListQuery.parse({
      page: "2",
      per_page: "3",
      search: "hall",
      has_events: "1",
      status: "publish",
    });
    const base = "https://example.org/de/cal/events/v1/venues/";
    expect(listLinks(links, "venues", query, 3)).toEqual({
      rest_url: `${base}?page=2&per_page=3&search=hall&has_events=1&status=publish`,
      next_rest_url: `${base}?page=3&per_page=3&search=hall&has_events=1&status=publish`,
      previous_rest_url: `${base}?per_page=3&search=hall&has_events=1&status=publish`,
    });
  });

  it("keeps an explicit ml_language in every link and leaves the default per_page out", () => {
    const query = linkedPostListQuery.parse({ ml_language: "fr" });
    expect(listLinks({ ...links, languageParam: "fr" }, "organizers", query, 1)).toEqual({
      rest_url: "https://example.org/de/cal/events/v1/organizers/?ml_language=fr",
    });
  });
});

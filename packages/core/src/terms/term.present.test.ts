import { describe, expect, it } from "vitest";
import { termRecord } from "../testing/factories.ts";
import { presentEmbeddedTerm, presentTerm, termPageLinks } from "./term.present.ts";
import { termListQuery } from "./term.schemas.ts";

const links = { apiRoot: "http://calendar.test/de/cal/events/v1" };
const api = links.apiRoot;

const child = termRecord({ id: 7, name: "Jazz", description: "<b>Swing</b>", parentId: 3, language: "de" });

describe("presentTerm", () => {
  it("shapes a category with its parent link, count and translations", () => {
    expect(presentTerm("category", child, { count: 2, translations: { en: 9 } }, links)).toEqual({
      id: 7,
      count: 2,
      description: "<b>Swing</b>",
      name: "Jazz",
      slug: "jazz",
      taxonomy: "tribe_events_cat",
      parent: 3,
      meta: [],
      url: "http://calendar.test/de/category/jazz/",
      urls: {
        self: `${api}/categories/7`,
        collection: `${api}/categories`,
        up: `${api}/categories/3`,
      },
      language: "de",
      translations: { en: 9 },
    });
  });

  it("leaves urls.up out and gives parent 0 without a parent", () => {
    const term = presentTerm("tag", { ...child, parentId: null }, { count: 0, translations: {} }, links);
    expect(term.parent).toBe(0);
    expect(term.taxonomy).toBe("post_tag");
    expect(term.urls).toEqual({ self: `${api}/tags/7`, collection: `${api}/tags` });
    expect(term.url).toBe("http://calendar.test/de/tag/jazz/");
  });

  it("keeps an explicit ml_language in every API link", () => {
    const term = presentTerm("category", child, { count: 0, translations: {} }, { ...links, languageParam: "fr" });
    expect(term.urls.self).toBe(`${api}/categories/7?ml_language=fr`);
    expect(term.urls.up).toBe(`${api}/categories/3?ml_language=fr`);
  });
});

describe("presentEmbeddedTerm", () => {
  it("shapes a term as events embed it", () => {
    expect(presentEmbeddedTerm("category", child, 4, links)).toEqual({
      id: 7,
      name: "Jazz",
      slug: "jazz",
      term_group: 0,
      term_taxonomy_id: 7,
      taxonomy: "tribe_events_cat",
      description: "<b>Swing</b>",
      parent: 3,
      count: 4,
      filter: "raw",
      urls: { self: `${api}/categories/7`, collection: `${api}/categories`, up: `${api}/categories/3` },
      language: "de",
    });
  });
});

describe("termPageLinks", () => {
  const query = (input: Record<string, unknown>) => termListQuery.parse(input);

  it("gives only the bare collection on a single page", () => {
    expect(termPageLinks(links, "category", query({}), 1)).toEqual({ rest_url: `${api}/categories/` });
  });

  it("links the next page while there is one", () => {
    expect(termPageLinks(links, "tag", query({ page: 1 }), 3)).toEqual({
      rest_url: `${api}/tags/`,
      next_rest_url: `${api}/tags/?page=2`,
    });
  });

  it("links the previous page as the bare collection from page 2", () => {
    expect(termPageLinks(links, "tag", query({ page: 2 }), 3)).toEqual({
      rest_url: `${api}/tags/`,
      next_rest_url: `${api}/tags/?page=3`,
      previous_rest_url: `${api}/tags/`,
    });
  });

  it("links the previous page by number past the end, and no next page", () => {
    expect(termPageLinks(links, "tag", query({ page: 5 }), 3)).toEqual({
      rest_url: `${api}/tags/`,
      previous_rest_url: `${api}/tags/?page=4`,
    });
  });

  it("keeps the parameters that differ from their defaults in next and previous", () => {
    const page = termPageLinks(
      { ...links, languageParam: "fr" },
      "category",
      query({ page: 2, per_page: 2, hide_empty: "false", search: "a b", post: 4, orderby: "count" }),
      3,
    );
    expect(page).toEqual({
      rest_url: `${api}/categories/?ml_language=fr`,
      next_rest_url: `${api}/categories/?page=3&per_page=2&search=a+b&orderby=count&hide_empty=0&post=4&ml_language=fr`,
      previous_rest_url: `${api}/categories/?per_page=2&search=a+b&orderby=count&hide_empty=0&post=4&ml_language=fr`,
    });
  });
});

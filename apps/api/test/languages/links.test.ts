import type { Language } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import type { NamespaceIndex } from "../../src/rest/namespace-index.ts";
import { first, found } from "../support/narrow.ts";
import { useTestServer } from "../support/server.ts";
import { LANGUAGES, ROOT, readerOf, SELECTORS, type Selector, writerOf } from "./support.ts";

/** Three records of each kind per language, so that page 2 of 1-item pages has a next and a previous page. */
interface Seeded {
  events: number[];
  venues: number[];
  organizers: number[];
  /** The last one is a child of the first. */
  categories: number[];
  tags: number[];
}

const EVENT_WINDOW = { start_date: "2030-05-01", end_date: "2030-05-31" };
const EVENT_WINDOW_ECHO = "start_date=2030-05-01+00%3A00%3A00&end_date=2030-05-31+23%3A59%3A59";

/** The part of the OpenAPI document these tests read. */
interface OpenApiServers {
  servers: Array<{ url: string }>;
}

describe.each(PROVIDERS)("languages: generated links keep the prefix or parameter (%s)", (provider) => {
  const server = useTestServer(provider);
  const seeded = {} as Record<Language, Seeded>;

  beforeAll(async () => {
    for (const language of LANGUAGES) {
      const write = writerOf(server, {
        label: "",
        language,
        transport: "rest",
        root: `/${language}${ROOT}`,
        query: {},
      });
      const records: Seeded = { events: [], venues: [], organizers: [], categories: [], tags: [] };
      for (const name of ["One", "Two", "Three"]) {
        const parent = name === "Three" ? { parent: records.categories[0] } : {};
        records.categories.push((await write.create("categories", { name: `Category ${name}`, ...parent })).id);
        records.tags.push((await write.create("tags", { name: `Tag ${name}` })).id);
        records.venues.push((await write.create("venues", { venue: `Venue ${name}` })).id);
        records.organizers.push((await write.create("organizers", { organizer: `Organizer ${name}` })).id);
      }
      for (const [index, name] of ["One", "Two", "Three"].entries()) {
        const day = `2030-05-0${index + 1}`;
        const event = await write.create("events", {
          title: `Event ${name}`,
          start_date: `${day} 10:00:00`,
          end_date: `${day} 12:00:00`,
          categories: records.categories,
          tags: records.tags,
          venue: records.venues[index],
          organizer: [records.organizers[index]],
        });
        records.events.push(event.id);
      }
      seeded[language] = records;
    }
  });

  /** What every link of a selector starts with, and the parameter it must end with. */
  function linkBase(selector: Selector) {
    const base = `${server.origin}${selector.transport === "trpc" ? ROOT : selector.root}`;
    const language = selector.query.ml_language;
    return {
      /** `<base><path>` with the other parameters, then `ml_language` when the request gave it. */
      link: (path: string, params = "") => {
        const query = [params, language ? `ml_language=${language}` : ""].filter(Boolean).join("&");
        return `${base}${path}${query ? `?${query}` : ""}`;
      },
    };
  }

  it.each(SELECTORS)("links events, their terms and the list pages to the request's base: $label", async (selector) => {
    const read = readerOf(server, selector);
    const { link } = linkBase(selector);
    const mine = seeded[selector.language];

    const page = await read.list("events", { ...EVENT_WINDOW, per_page: 1, page: 2 });
    const echo = `per_page=1&${EVENT_WINDOW_ECHO}`;
    expect({
      rest_url: page.rest_url,
      next_rest_url: page.next_rest_url,
      previous_rest_url: page.previous_rest_url,
      total: page.total,
    }).toEqual({
      rest_url: link("/events/", `page=2&${echo}`),
      next_rest_url: link("/events/", `page=3&${echo}`),
      previous_rest_url: link("/events/", echo),
      total: 3,
    });
    const event = first(page.events);
    const [parent, , child] = mine.categories as [number, number, number];
    expect(event.id).toBe(mine.events[1]);
    expect(event.rest_url).toBe(link(`/events/${event.id}`));
    const childTerm = found(event.categories.find((term) => term.id === child));
    expect(childTerm.urls).toEqual({
      self: link(`/categories/${child}`),
      collection: link("/categories"),
      up: link(`/categories/${parent}`),
    });
    const tag = first(event.tags);
    expect(tag.urls).toEqual({ self: link(`/tags/${tag.id}`), collection: link("/tags") });

    expect((await read.get("events", mine.events[0] as number)).rest_url).toBe(link(`/events/${mine.events[0]}`));
    expect((await read.getBySlug("events", "event-three")).rest_url).toBe(link(`/events/${mine.events[2]}`));
  });

  it.each(SELECTORS)(
    "links the pages of venues, organizers, categories and tags to the request's base: $label",
    async (selector) => {
      const read = readerOf(server, selector);
      const { link } = linkBase(selector);
      const mine = seeded[selector.language];

      // The rest_url of venues and organizers keeps the page's query; that of terms names the collection alone.
      const ownQuery = { venues: "page=2&per_page=1", organizers: "page=2&per_page=1", categories: "", tags: "" };
      for (const resource of ["venues", "organizers", "categories", "tags"] as const) {
        const page = await read.list(resource, { per_page: 1, page: 2 });
        expect({
          resource,
          rest_url: page.rest_url,
          next_rest_url: page.next_rest_url,
          previous_rest_url: page.previous_rest_url,
        }).toEqual({
          resource,
          rest_url: link(`/${resource}/`, ownQuery[resource]),
          next_rest_url: link(`/${resource}/`, "page=3&per_page=1"),
          previous_rest_url: link(`/${resource}/`, "per_page=1"),
        });
      }
      const [parent, , child] = mine.categories as [number, number, number];
      const term = await read.get("categories", child);
      expect(term.urls).toEqual({
        self: link(`/categories/${child}`),
        collection: link("/categories"),
        up: link(`/categories/${parent}`),
      });
      const listed = (await read.list("categories", { include: [child] })).categories;
      expect(listed.map((category: { urls: unknown }) => category.urls)).toEqual([term.urls]);
    },
  );

  const restSelectors = SELECTORS.filter((selector) => selector.transport === "rest");

  it.each(restSelectors)(
    "names the request's language base in the document and the index: $label",
    async (selector) => {
      const { link } = linkBase(selector);
      const language = selector.query.ml_language;

      const document = await server.rest<OpenApiServers>("GET", `${selector.root}/doc`, { query: selector.query });
      expect(document.status).toBe(200);
      // A server URL takes no query, so the parameter is given as the equivalent prefix.
      expect(first(document.body.servers).url).toBe(
        `${server.origin}${language ? `/${language}${ROOT}` : selector.root}/`,
      );

      const index = await server.rest<NamespaceIndex>("GET", selector.root, { query: selector.query });
      expect(index.status).toBe(200);
      const { routes } = index.body;
      expect({
        root: routes[ROOT]?._links?.self,
        events: routes[`${ROOT}/events`]?._links?.self,
        doc: routes[`${ROOT}/doc`]?._links?.self,
        up: index.body._links.up,
      }).toEqual({
        root: [{ href: link("") }],
        events: [{ href: link("/events") }],
        doc: [{ href: link("/doc") }],
        up: [{ href: `${server.origin}/` }],
      });
    },
  );
});

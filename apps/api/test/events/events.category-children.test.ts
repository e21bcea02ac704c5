import { CATEGORY_FILTER_BOUNDS } from "@calendar/core";
import { create, PROVIDERS } from "@calendar/core/testing";
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { EVENTS, eventsOf } from "./support.ts";

const WINDOW = { start_date: "2031-03-01", end_date: "2031-03-31" };

/**
 * `categories` includes subcategories, as the plugin's events archive does: its `parse_terms_query` builds a tax
 * query without `include_children` (the-events-calendar, src/Tribe/REST/V1/Endpoints/Archive_Event.php at 523903f5),
 * and WordPress' tax queries include children unless told otherwise.
 */
describe.each(PROVIDERS)("the categories filter and subcategories (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);

  async function tree() {
    const music = await create.category(server.db, { name: "Music" });
    const jazz = await create.category(server.db, { name: "Jazz", parentId: music.id });
    const bebop = await create.category(server.db, { name: "Bebop", parentId: jazz.id });
    const theatre = await create.category(server.db, { name: "Theatre" });
    const at = (day: number) => ({ start_date: `2031-03-${day} 19:00:00`, end_date: `2031-03-${day} 21:00:00` });
    const ids = {
      music: (await events.create({ title: "Orchestra", categories: [music.id], ...at(10) })).id,
      jazz: (await events.create({ title: "Jazz night", categories: [jazz.id], ...at(11) })).id,
      bebop: (await events.create({ title: "Bebop session", categories: [bebop.id], ...at(12) })).id,
      theatre: (await events.create({ title: "Hamlet", categories: [theatre.id], ...at(13) })).id,
    };
    return { categories: { music, jazz, bebop, theatre }, ids };
  }

  let seeded: Awaited<ReturnType<typeof tree>>;
  beforeAll(async () => {
    seeded = await tree();
  });

  it("lists the events of a category's children and their children, by slug or by id, counted in total", async () => {
    const { categories, ids } = seeded;
    const bySlug = await events.list({ ...WINDOW, categories: "music" });
    expect(bySlug.body.events.map((event) => event.id)).toEqual([ids.music, ids.jazz, ids.bebop]);
    expect(bySlug.body.total).toBe(3);
    expect(bySlug.headers.get("x-wp-total")).toBe("3");
    expect(await events.ids({ ...WINDOW, categories: String(categories.jazz.id) })).toEqual([ids.jazz, ids.bebop]);
    expect(await events.ids({ ...WINDOW, categories: "bebop" })).toEqual([ids.bebop]);
    expect(await events.ids({ ...WINDOW, categories: "bebop,theatre" })).toEqual([ids.bebop, ids.theatre]);
  });

  it("gives the same events in the iCalendar feed", async () => {
    const feed = await server.rest("GET", `${EVENTS}.ics`, { query: { ...WINDOW, categories: "music" } });
    expect(feed.status).toBe(200);
    const calendar = new ICAL.Component(ICAL.parse(feed.text));
    const titles = calendar.getAllSubcomponents("vevent").map((event) => event.getFirstPropertyValue("summary"));
    expect(titles).toEqual(["Orchestra", "Jazz night", "Bebop session"]);
  });

  it("refuses a filter that reaches more subcategories than the documented bound, naming categories", async () => {
    const root = await create.category(server.db, { name: "Everything" });
    await server.db.category.createMany({
      data: Array.from({ length: CATEGORY_FILTER_BOUNDS.categories }, (_, index) => ({
        name: `Leaf ${index}`,
        nameKey: `leaf ${index}`,
        slug: `leaf-${index}`,
        parentId: root.id,
      })),
    });
    const refused = await server.fail("GET /events", 400, { query: { categories: "everything" } });
    expect(refused.body).toEqual({
      code: "rest_invalid_param",
      message: "Invalid parameter(s): categories",
      data: {
        status: 400,
        params: {
          categories: `These categories have more than ${CATEGORY_FILTER_BOUNDS.categories} subcategories, or more than ${CATEGORY_FILTER_BOUNDS.depth} levels of them; name fewer or deeper ones.`,
        },
      },
    });
  });

  it("follows subcategories down to the documented depth and refuses one level deeper", async () => {
    let parent = await create.category(server.db, { name: "Level 0" });
    for (let level = 1; level <= CATEGORY_FILTER_BOUNDS.depth; level += 1) {
      parent = await create.category(server.db, { name: `Level ${level}`, parentId: parent.id });
    }
    const start = { start_date: "2031-03-20 19:00:00", end_date: "2031-03-20 21:00:00" };
    const bottom = (await events.create({ title: "At the bottom", categories: [parent.id], ...start })).id;
    expect(await events.ids({ ...WINDOW, categories: "level-0" })).toEqual([bottom]);

    await create.category(server.db, { name: "One too deep", parentId: parent.id });
    const refused = await server.fail("GET /events", 400, { query: { ...WINDOW, categories: "level-0" } });
    expect(refused.body.data.params).toEqual({
      categories: `These categories have more than ${CATEGORY_FILTER_BOUNDS.categories} subcategories, or more than ${CATEGORY_FILTER_BOUNDS.depth} levels of them; name fewer or deeper ones.`,
    });
  });
});

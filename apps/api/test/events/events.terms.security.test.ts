import { create, PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { invalidParams, restFailure, trpcFailure } from "../support/errors.ts";
import { useTestServer } from "../support/server.ts";
import { eventsOf } from "./support.ts";

/** docs/behaviour.md, "Creating events": at most 50 terms per list, and only term managers create terms by name. */

const WHEN = { start_date: "2030-07-01 10:00:00", end_date: "2030-07-01 11:00:00" };

const unknownNames = (param: "categories" | "tags", names: string) =>
  invalidParams({
    [param]: `Unknown name(s): ${names}. Only editors create terms by name; use existing ones or ask an editor.`,
  });

describe.each(PROVIDERS)("terms named by event writes (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const users = () => server.users;

  const termCounts = async () => ({ categories: await server.db.category.count(), tags: await server.db.tag.count() });
  const termNamesOf = async (eventId: number) => {
    const row = await server.db.event.findUniqueOrThrow({
      where: { id: eventId },
      include: { categories: { include: { category: true } }, tags: { include: { tag: true } } },
    });
    return {
      categories: row.categories.map((link) => link.category.name).sort(),
      tags: row.tags.map((link) => link.tag.name).sort(),
    };
  };

  it("refuses unknown category and tag names from contributors and authors, naming them and writing nothing", async () => {
    await create.category(server.db, { name: "Concerts" });
    const before = { events: await server.db.event.count(), ...(await termCounts()) };
    for (const role of ["contributor", "author"] as const) {
      const categories = await server.fail("POST /events", 400, {
        as: users()[role],
        body: { ...WHEN, title: "Spam", categories: ["concerts", "Brand new", "Another one"] },
      });
      expect(categories.body).toEqual(unknownNames("categories", "Brand new, Another one"));
      const tags = await server.fail("POST /events", 400, {
        as: users()[role],
        body: { ...WHEN, title: "Spam", tags: "loud,quiet" },
      });
      expect(tags.body).toEqual(unknownNames("tags", "loud, quiet"));
      expect(
        await trpcFailure(
          server
            .client(users()[role])
            .events.create.mutate({ ...WHEN, title: "Spam", categories: ["concerts", "Brand new", "Another one"] }),
        ),
      ).toEqual(restFailure(categories));
    }
    expect({ events: await server.db.event.count(), ...(await termCounts()) }).toEqual(before);
  });

  it("bounds the names a refusal lists", async () => {
    const names = Array.from({ length: 50 }, (_, index) => `Name ${index + 1}`);
    const refused = await server.fail("POST /events", 400, {
      as: users().author,
      body: { ...WHEN, title: "Many", tags: names },
    });
    expect(refused.body).toEqual(unknownNames("tags", `${names.slice(0, 10).join(", ")} and 40 more`));
  });

  it("refuses an author's update naming an unknown tag, leaving the event and the tags as they were", async () => {
    await create.tag(server.db, { name: "Existing tag" });
    const own = await events.create({ ...WHEN, title: "Author's gig", tags: ["existing tag"] }, users().author);
    const before = await termCounts();
    const refused = await server.fail("PATCH /events/{id}", 400, {
      as: users().author,
      params: { id: own.id },
      body: { title: "Changed", tags: ["Existing tag", "Unheard of"] },
    });
    expect(refused.body).toEqual(unknownNames("tags", "Unheard of"));
    const bySlug = await server.fail("PUT /events/by-slug/{slug}", 400, {
      as: users().author,
      params: { slug: own.slug },
      body: { categories: "Unheard of" },
    });
    expect(bySlug.body).toEqual(unknownNames("categories", "Unheard of"));
    expect(await termCounts()).toEqual(before);
    expect(await termNamesOf(own.id)).toEqual({ categories: [], tags: ["Existing tag"] });
    expect((await server.db.event.findUniqueOrThrow({ where: { id: own.id } })).title).toBe("Author's gig");
  });

  it("lets contributors and authors link existing terms by name or id, and editors create new ones", async () => {
    const jazz = await create.category(server.db, { name: "Jazz" });
    await create.tag(server.db, { name: "Outdoor" });
    const contributors = await events.create(
      { ...WHEN, title: "Contributor's gig", categories: [jazz.id, "JAZZ"], tags: ["outdoor"] },
      users().contributor,
    );
    expect(await termNamesOf(contributors.id)).toEqual({ categories: ["Jazz"], tags: ["Outdoor"] });
    const editors = await events.create(
      { ...WHEN, title: "Editor's gig", categories: ["Jazz", "Fresh category"], tags: ["Fresh tag"] },
      users().editor,
    );
    expect(await termNamesOf(editors.id)).toEqual({ categories: ["Fresh category", "Jazz"], tags: ["Fresh tag"] });
    const viaRpc = await server
      .client(users().administrator)
      .events.create.mutate({ ...WHEN, title: "Admin's gig", tags: ["Admin tag"] });
    expect(await termNamesOf(viaRpc.id)).toEqual({ categories: [], tags: ["Admin tag"] });
  });

  it("bounds categories and tags to 50 per event for everybody, creating no term", async () => {
    const before = await termCounts();
    const names = Array.from({ length: 51 }, (_, index) => `Bulk ${index}`);
    for (const param of ["categories", "tags"] as const) {
      const refused = await server.fail("POST /events", 400, {
        as: users().administrator,
        body: { ...WHEN, title: "Too many", [param]: names },
      });
      expect(refused.body).toEqual(invalidParams({ [param]: "At most 50 terms." }));
      expect(
        await trpcFailure(
          server.client(users().administrator).events.create.mutate({ ...WHEN, title: "Too many", [param]: names }),
        ),
      ).toEqual(restFailure(refused));
    }
    const many = Array.from({ length: 20_000 }, (_, index) => `Spam ${index}`);
    const flood = await server.fail("POST /events", 400, {
      as: users().contributor,
      body: { ...WHEN, title: "Flood", categories: many, tags: many },
    });
    expect(flood.body).toEqual(invalidParams({ categories: "At most 50 terms.", tags: "At most 50 terms." }));
    expect(await termCounts()).toEqual(before);
    const fifty = await events.create({ ...WHEN, title: "Fifty", tags: names.slice(0, 50) }, users().editor);
    expect((await termNamesOf(fifty.id)).tags).toHaveLength(50);
  });

  it("skips an imported series with more than 50 CATEGORIES, creating no term", async () => {
    const categories = Array.from({ length: 51 }, (_, index) => `Imported ${index}`).join(",");
    const ics = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//test//EN",
      "BEGIN:VEVENT",
      "UID:many-categories@test",
      "DTSTAMP:20300101T000000Z",
      "DTSTART:20300801T100000Z",
      "DTEND:20300801T110000Z",
      "SUMMARY:Many categories",
      `CATEGORIES:${categories}`,
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    const before = await termCounts();
    const result = await server.call("POST /import", {
      as: users().editor,
      body: ics,
      contentType: "text/calendar",
    });
    expect(result.body.created).toEqual([]);
    expect(result.body.skipped).toEqual([
      { uid: "many-categories@test", reason: "Invalid parameter(s): categories (categories)" },
    ]);
    expect(await termCounts()).toEqual(before);
  });
});

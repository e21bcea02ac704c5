import type { RouterOutputs } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
const SCHEDULE = { start_date: "2032-03-01 18:00:00", end_date: "2032-03-01 20:00:00" };
const BURST = 200;

function countBy<T>(items: readonly T[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[String(item)] = (counts[String(item)] ?? 0) + 1;
  return counts;
}

describe.each(PROVIDERS)("concurrent writes (%s)", (provider) => {
  const server = useTestServer(provider);

  it(`creates ${BURST} events with the same title at once: ${BURST} events with ${BURST} distinct slugs, no errors`, async () => {
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, index) =>
        server.call("POST /events", {
          as: index % 2 === 0 ? server.users.editor : server.users.author,
          body: { title: "Crowded Night", ...SCHEDULE },
          status: 201,
        }),
      ),
    );
    expect(countBy(responses.map((response) => response.status))).toEqual({ 201: BURST });
    const slugs = responses.map((response) => response.body.slug);
    const expected = [
      "crowded-night",
      ...Array.from({ length: BURST - 1 }, (_, index) => `crowded-night-${index + 2}`),
    ];
    expect([...slugs].sort()).toEqual([...expected].sort());
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(BURST);
    const stored = await server.db.event.findMany({ where: { title: "Crowded Night" }, select: { slug: true } });
    expect(stored.map((row) => row.slug).sort()).toEqual([...expected].sort());
  });

  it(`creates the same venue ${BURST} times at once (and an organizer 100 times): exactly one of each`, async () => {
    const [venues, organizers] = await Promise.all([
      Promise.all(
        Array.from({ length: BURST }, (_, index) =>
          server.call("POST /venues", {
            as: index % 2 === 0 ? server.users.editor : server.users.administrator,
            body: { venue: index % 3 === 0 ? "THE HALL" : "The Hall", city: "Ghent" },
            status: 201,
          }),
        ),
      ),
      Promise.all(
        Array.from({ length: 100 }, () =>
          server.call("POST /organizers", {
            as: server.users.editor,
            body: { organizer: "One Crew", email: "crew@example.org" },
            status: 201,
          }),
        ),
      ),
    ]);
    expect(countBy(venues.map((response) => response.status))).toEqual({ 201: BURST });
    expect(countBy(organizers.map((response) => response.status))).toEqual({ 201: 100 });
    expect(new Set(venues.map((response) => response.body.id)).size).toBe(1);
    expect(new Set(organizers.map((response) => response.body.id)).size).toBe(1);
    expect(await server.db.venue.count({ where: { nameKey: "the hall" } })).toBe(1);
    expect(await server.db.organizer.count({ where: { nameKey: "one crew" } })).toBe(1);
    const [venue] = await server.db.venue.findMany({ where: { nameKey: "the hall" } });
    expect({ slug: venue?.slug, city: venue?.city }).toEqual({ slug: "the-hall", city: "Ghent" });
  });

  it("creates one category name 50 times at once: one category, every other request told it exists", async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        server.rest<RouterOutputs["categories"]["create"] | RestErrorBody>("POST", `${API}/categories`, {
          as: server.users.editor,
          body: { name: "Simultaneous" },
        }),
      ),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(created).toHaveLength(1);
    const refused = responses.filter((response) => response.status !== 201);
    const [category] = created.flatMap(({ body }) => ("id" in body ? [body] : []));
    expect(new Set(refused.map((response) => JSON.stringify([response.status, response.body])))).toEqual(
      new Set([
        JSON.stringify([
          400,
          {
            code: "term_exists",
            message: "A term with the name provided already exists in this taxonomy.",
            data: { status: 400, term_id: category?.id },
          },
        ]),
      ]),
    );
    expect(await server.db.category.count({ where: { name: "Simultaneous" } })).toBe(1);
  });

  it("creates 40 different tags and 40 categories at once: every one of them, no errors", async () => {
    const responses = await Promise.all(
      (["tags", "categories"] as const).flatMap((kind) =>
        Array.from({ length: 40 }, (_, index) =>
          server.call(`POST /${kind}`, {
            as: server.users.administrator,
            body: { name: `Parallel ${index}` },
            status: 201,
          }),
        ),
      ),
    );
    expect(countBy(responses.map((response) => response.status))).toEqual({ 201: 80 });
    expect(await server.db.tag.count({ where: { name: { startsWith: "Parallel " } } })).toBe(40);
    expect(await server.db.category.count({ where: { name: { startsWith: "Parallel " } } })).toBe(40);
  });

  it("deletes, force-deletes, updates and links one organizer at once: each answered 2xx, 400 or 410, never 5xx", async () => {
    const as = server.users.administrator;
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const created = await server.call("POST /organizers", { as, body: { organizer: `Contested ${round}` } });
      const item = `${API}/organizers/${created.body.id}`;
      const answers = await Promise.all([
        server.rest("DELETE", item, { as, query: { force: "true" } }),
        server.rest("DELETE", item, { as }),
        server.rest("PATCH", item, { as, body: { excerpt: "Still here?" } }),
        server.rest("POST", `${API}/events`, {
          as,
          body: { title: "Linking", ...SCHEDULE, organizer: [created.body.id] },
        }),
      ]);
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect([...new Set(statuses)].filter((status) => ![200, 201, 400, 410].includes(status))).toEqual([]);
    expect(await server.db.organizer.count({ where: { name: { startsWith: "Contested " } } })).toBe(0);
  });

  it("updates one event from two clients at once: every answer is one whole write, and so is the final state", async () => {
    const { editor, administrator } = server.users;
    const create = async (route: "POST /venues" | "POST /categories" | "POST /events", body: object) =>
      (await server.call(route, { as: administrator, body, status: 201 })).body.id;
    const sides = {
      A: {
        venue: await create("POST /venues", { venue: "Side A Hall" }),
        category: await create("POST /categories", { name: "Side A" }),
      },
      B: {
        venue: await create("POST /venues", { venue: "Side B Hall" }),
        category: await create("POST /categories", { name: "Side B" }),
      },
    };
    const event = await create("POST /events", { title: "Contested", ...SCHEDULE });
    const writeOf = (side: "A" | "B", round: number) => {
      const marker = `${side}${round}`;
      return {
        title: `Contested ${marker}`,
        description: `<p>Description ${marker}</p>`,
        excerpt: `Excerpt ${marker}`,
        cost: `${round + 1}$`,
        venue: [sides[side].venue],
        categories: [sides[side].category],
        featured: side === "A",
      };
    };
    const rounds = 20;
    const restClient = async (round: number) => {
      const response = await server.call("PATCH /events/{id}", {
        params: { id: event },
        as: editor,
        body: writeOf("A", round),
        status: 200,
      });
      return response.body;
    };
    const trpcClient = server.client(administrator);
    const answers = await Promise.all(
      Array.from({ length: rounds }, (_, round) => [
        restClient(round),
        trpcClient.events.update.mutate({ id: event, ...writeOf("B", round) }),
      ]).flat(),
    );

    /** The write an event shows, if all its fields come from one write. */
    const writeShown = (shown: RouterOutputs["events"]["update"]) => {
      const marker = /^Contested ([AB])(\d+)$/.exec(shown.title);
      if (!marker) return undefined;
      const [, side, round] = marker as unknown as [string, "A" | "B", string];
      const expected = writeOf(side, Number(round));
      const venues = Array.isArray(shown.venue) ? shown.venue : [shown.venue];
      const consistent =
        shown.description === expected.description &&
        shown.excerpt === expected.excerpt &&
        shown.cost === expected.cost &&
        shown.featured === expected.featured &&
        JSON.stringify(venues.map((venue) => venue.id)) === JSON.stringify(expected.venue) &&
        JSON.stringify(shown.categories.map((term) => term.id)) === JSON.stringify(expected.categories);
      return consistent ? `${side}${round}` : undefined;
    };
    expect(answers.filter((answer) => writeShown(answer) === undefined)).toEqual([]);
    const final = await server.call("GET /events/{id}", { params: { id: event }, as: editor });
    expect(writeShown(final.body)).toBeDefined();
    const links = await server.db.event.findUnique({
      where: { id: event },
      select: { venues: { select: { venueId: true } }, categories: { select: { categoryId: true } } },
    });
    const side = (writeShown(final.body) ?? "A").slice(0, 1) as "A" | "B";
    expect(links).toEqual({
      venues: [{ venueId: sides[side].venue }],
      categories: [{ categoryId: sides[side].category }],
    });
  });
});

import type { RouterOutputs } from "@calendar/core";
import { PROVIDERS, type TestUser } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { first, single } from "../support/narrow.ts";
import { useTestServer } from "../support/server.ts";

/**
 * A password-protected event shows, to those who neither give its password nor may edit it, only what the
 * reference keeps (id, title, slug, status, dates, links): none of what the password protects may reach them, by
 * any way of asking: lists, single reads, filters and searches over protected fields, the records that refer
 * to the event, and the tRPC surface.
 */

const API = "/cal/events/v1";
const WINDOW = { start_date: "2035-02-01", end_date: "2035-02-28" };

/** Every protected detail carries one of these; none may appear in an answer to the public. */
const SECRETS = {
  description: "<p>Plugh description xyzzy</p>",
  excerpt: "Frobozz excerpt",
  website: "https://zorkmid.example/secret",
  cost: "$777",
  image: "https://grue.example/secret.png",
  venue: "Flathead Hall",
  organizer: "Dimwit Productions",
  category: "Sekrit Category",
  tag: "sekrit-tag",
};
const MARKERS = [
  "xyzzy",
  "Plugh",
  "Frobozz",
  "zorkmid",
  "777",
  "grue.example",
  "Flathead",
  "Dimwit",
  "Sekrit",
  "sekrit",
];

/** A list of what an event links to. */
type LinkList = RouterOutputs["venues" | "organizers" | "categories" | "tags"]["list"];

function itemsOf(list: LinkList): readonly unknown[] {
  if ("venues" in list) return list.venues;
  if ("organizers" in list) return list.organizers;
  if ("categories" in list) return list.categories;
  return list.tags;
}

describe.each(PROVIDERS)("password-protected events (%s)", (provider) => {
  const server = useTestServer(provider);
  let event: { id: number; slug: string };
  const ids = { venue: 0, organizer: 0, category: 0, tag: 0 };

  beforeAll(async () => {
    const { administrator } = server.users;
    const created = await server.call("POST /events", {
      as: administrator,
      status: 201,
      body: {
        title: "Masquerade",
        start_date: "2035-02-14 20:00:00",
        end_date: "2035-02-14 23:00:00",
        password: "opensesame",
        description: SECRETS.description,
        excerpt: SECRETS.excerpt,
        website: SECRETS.website,
        cost: SECRETS.cost,
        image: SECRETS.image,
        featured: true,
        ticketed: true,
        venue: { venue: SECRETS.venue, geo_lat: 48.85, geo_lng: 2.35 },
        organizer: [{ organizer: SECRETS.organizer }],
        categories: [SECRETS.category],
        tags: [SECRETS.tag],
      },
    });
    expect(created.status).toBe(201);
    event = { id: created.body.id, slug: created.body.slug };
    ids.venue = single(created.body.venue).id;
    ids.organizer = first(created.body.organizer).id;
    ids.category = first(created.body.categories).id;
    ids.tag = first(created.body.tags).id;
  });

  /** Every way of asking for the event, its details or its links, as REST paths with their query. */
  const restQuestions = (): Array<{ path: string; query: Record<string, string> }> => [
    { path: `${API}/events`, query: WINDOW },
    { path: `${API}/events`, query: { ...WINDOW, password: "wrong" } },
    { path: `${API}/events`, query: { include: String(event.id) } },
    { path: `/de${API}/events`, query: { ...WINDOW, ml_language: "en" } },
    { path: `${API}/events/${event.id}`, query: {} },
    { path: `${API}/events/${event.id}`, query: { password: "wrong" } },
    { path: `${API}/events/by-slug/${event.slug}`, query: {} },
    { path: `${API}/events`, query: { ...WINDOW, search: "xyzzy" } },
    { path: `${API}/events`, query: { ...WINDOW, search: "frobozz" } },
    { path: `${API}/events`, query: { ...WINDOW, categories: String(ids.category) } },
    { path: `${API}/events`, query: { ...WINDOW, categories: "sekrit-category" } },
    { path: `${API}/events`, query: { ...WINDOW, tags: String(ids.tag) } },
    { path: `${API}/events`, query: { ...WINDOW, venue: String(ids.venue) } },
    { path: `${API}/events`, query: { ...WINDOW, organizer: String(ids.organizer) } },
    { path: `${API}/events`, query: { ...WINDOW, featured: "true" } },
    { path: `${API}/events`, query: { ...WINDOW, ticketed: "true" } },
    { path: `${API}/events`, query: { ...WINDOW, geoloc: "true" } },
    { path: `${API}/events`, query: { ...WINDOW, geoloc_lat: "48.85", geoloc_lng: "2.35" } },
    { path: `${API}/venues`, query: { event: String(event.id) } },
    { path: `${API}/organizers`, query: { event: String(event.id) } },
    { path: `${API}/categories`, query: { post: String(event.id), hide_empty: "false" } },
    { path: `${API}/tags`, query: { event: String(event.id), hide_empty: "false" } },
  ];

  /** The answers a requester gets; the event must show up only as its kept fields. */
  async function answersFor(
    as: TestUser | undefined,
  ): Promise<Array<{ question: string; status: number; text: string }>> {
    const answers = [];
    for (const { path, query } of restQuestions()) {
      const response = await server.rest("GET", path, { query, ...(as ? { as } : {}) });
      answers.push({ question: `GET ${path} ${JSON.stringify(query)}`, status: response.status, text: response.text });
    }
    const rpc = server.client(as);
    const calls: Array<[string, Promise<unknown>]> = [
      ["trpc events.list", rpc.events.list.query(WINDOW)],
      ["trpc events.list search", rpc.events.list.query({ ...WINDOW, search: "xyzzy" })],
      ["trpc events.list venue", rpc.events.list.query({ ...WINDOW, venue: [ids.venue] })],
      ["trpc events.get", rpc.events.get.query({ id: event.id })],
      ["trpc events.getBySlug", rpc.events.getBySlug.query({ slug: event.slug, password: "nope" })],
      ["trpc venues.list", rpc.venues.list.query({ event: event.id })],
      ["trpc categories.list", rpc.categories.list.query({ post: event.id, hide_empty: false })],
    ];
    for (const [question, call] of calls) {
      const text = await call.then(
        (value) => JSON.stringify(value),
        (error: { data?: unknown; message?: string }) => JSON.stringify({ message: error.message, data: error.data }),
      );
      answers.push({ question, status: 0, text });
    }
    return answers;
  }

  /** The answer without the links that echo the question (a search for "xyzzy" may say so in `rest_url`). */
  const withoutEchoes = (text: string) => {
    try {
      return JSON.stringify(JSON.parse(text), (key, value) => (key.endsWith("rest_url") ? undefined : value));
    } catch {
      return text;
    }
  };
  const leaksIn = (answers: Array<{ question: string; text: string }>) =>
    answers.flatMap(({ question, text }) =>
      MARKERS.filter((marker) => withoutEchoes(text).includes(marker)).map((marker) => `${question}: ${marker}`),
    );

  /** The filters and searches over protected details, and the lists of what the event links to. */
  const detailQuestions = (): Array<Record<string, string>> => [
    { search: "xyzzy" },
    { search: "frobozz masquerade" },
    { categories: String(ids.category) },
    { categories: "sekrit-category" },
    { tags: String(ids.tag) },
    { venue: String(ids.venue) },
    { organizer: String(ids.organizer) },
    { featured: "true" },
    { ticketed: "true" },
    { geoloc: "true" },
    { geoloc_lat: "48.85", geoloc_lng: "2.35" },
  ];

  /** Which detail questions find the event (REST and tRPC), and which link lists show anything. */
  async function revealedTo(as: TestUser | undefined): Promise<string[]> {
    const request = as ? { as } : {};
    const revealed: string[] = [];
    for (const query of detailQuestions()) {
      const { body } = await server.call("GET /events", { ...request, query: { ...WINDOW, ...query } });
      if (body.events.some((listed) => listed.id === event.id)) revealed.push(JSON.stringify(query));
    }
    const rpc = server.client(as);
    for (const input of [
      { venue: [ids.venue] },
      { categories: [ids.category] },
      { search: "plugh" },
      { featured: true },
    ]) {
      const { events } = await rpc.events.list.query({ ...WINDOW, ...input });
      if (events.some((listed) => listed.id === event.id)) revealed.push(`trpc ${JSON.stringify(input)}`);
    }
    for (const [route, query] of [
      ["GET /venues", { event: String(event.id) }],
      ["GET /organizers", { event: String(event.id) }],
      ["GET /categories", { post: String(event.id), hide_empty: "false" }],
      ["GET /tags", { event: String(event.id), hide_empty: "false" }],
    ] as const) {
      const { body } = await server.call(route, { ...request, query });
      if (itemsOf(body).length > 0 || body.total !== 0) revealed.push(`${route} ${JSON.stringify(query)}`);
    }
    return revealed;
  }

  const others = () => [undefined, server.users.subscriber, server.users.contributor, server.users.author];

  it("shows nothing the password protects to the public, subscribers, contributors or other authors", async () => {
    for (const as of others()) {
      expect(leaksIn(await answersFor(as)), as?.login ?? "anonymous").toEqual([]);
    }
  });

  it("is not found by filters or searches over what the password protects, nor are its links listed", async () => {
    for (const as of others()) {
      expect(await revealedTo(as), as?.login ?? "anonymous").toEqual([]);
    }
  });

  it("keeps the event findable by its title, shown with its kept fields only", async () => {
    const { body } = await server.call("GET /events", { query: { ...WINDOW, search: "masquerade" } });
    expect(body.events.map((listed) => listed.id)).toEqual([event.id]);
    const listed = first(body.events);
    expect({
      title: listed.title,
      slug: listed.slug,
      description: listed.description,
      venue: listed.venue,
      organizer: listed.organizer,
      categories: listed.categories,
      featured: listed.featured,
    }).toEqual({
      title: "Masquerade",
      slug: "masquerade",
      description: "",
      venue: [],
      organizer: [],
      categories: [],
      featured: null,
    });
  });

  it("shows everything with the password, and to editors, whose filters and searches find it", async () => {
    const password = { password: "opensesame" };
    const withPassword = await server.call("GET /events/{id}", { params: { id: event.id }, query: password });
    expect(withPassword.body.description).toBe(SECRETS.description);
    const listed = await server.call("GET /events", { query: { ...WINDOW, ...password } });
    expect(single(first(listed.body.events).venue).venue).toBe(SECRETS.venue);
    expect(await revealedTo(server.users.editor)).toHaveLength(detailQuestions().length + 4 + 4);
  });
});

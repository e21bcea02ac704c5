import { FIXTURE_PASSWORD, PROVIDERS, type TestUser } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { EVENTS, eventsOf } from "./support.ts";

/**
 * A published event shows a linked venue or organizer only to those who may read that record itself, and its
 * protected details only where the record's own password lets them (docs/behaviour.md, "Event shape").
 */

const WHEN = { start_date: "2030-05-01 20:00:00", end_date: "2030-05-01 22:00:00" };
const PUBLIC_PLACE = { venue: "Public hall", address: "Main street 1", city: "Rome" };
const DRAFT_PLACE = { venue: "Draft hall", address: "Draft street 2", status: "draft" };
const SECRET_PLACE = {
  venue: "Secret hall",
  address: "Hidden street 3",
  phone: "+39 06 000",
  password: FIXTURE_PASSWORD,
};
const PUBLIC_CLUB = { organizer: "Public club", email: "public@example.test" };
const PRIVATE_CLUB = { organizer: "Private club", email: "private@example.test", status: "private" };

type Reader = "anonymous" | "subscriber" | "author" | "editor";

/** What each reader sees of the event's venues and organizers: names, and addresses where shown. */
const NOT_EDITOR = {
  venues: [
    { venue: "Public hall", address: "Main street 1" },
    { venue: "Secret hall", address: undefined },
  ],
  organizers: [{ organizer: "Public club", email: "public@example.test" }],
};
const EXPECTED: Record<Reader, typeof NOT_EDITOR> = {
  anonymous: NOT_EDITOR,
  subscriber: NOT_EDITOR,
  author: NOT_EDITOR,
  editor: {
    venues: [
      { venue: "Public hall", address: "Main street 1" },
      { venue: "Draft hall", address: "Draft street 2" },
      { venue: "Secret hall", address: "Hidden street 3" },
    ],
    organizers: [
      { organizer: "Public club", email: "public@example.test" },
      { organizer: "Private club", email: "private@example.test" },
    ],
  },
};

interface LinkedShape {
  venue: { venue: string; address?: string } | Array<{ venue: string; address?: string }>;
  organizer: Array<{ organizer: string; email?: string }>;
}

function linkedOf(event: LinkedShape) {
  const venues = Array.isArray(event.venue) ? event.venue : [event.venue];
  return {
    venues: venues.map((venue) => ({ venue: venue.venue, address: venue.address })),
    organizers: event.organizer.map((organizer) => ({ organizer: organizer.organizer, email: organizer.email })),
  };
}

describe.each(PROVIDERS)("linked records an event shows (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  let eventId = 0;
  const readers = (): Array<[Reader, TestUser | undefined]> => [
    ["anonymous", undefined],
    ["subscriber", server.users.subscriber],
    ["author", server.users.author],
    ["editor", server.users.editor],
  ];
  const as = (user: TestUser | undefined) => (user ? { as: user } : {});

  beforeAll(async () => {
    const editor = server.users.editor;
    const venue = async (body: Record<string, unknown>) =>
      (await server.call("POST /venues", { as: editor, body, status: 201 })).body.id;
    const organizer = async (body: Record<string, unknown>) =>
      (await server.call("POST /organizers", { as: editor, body, status: 201 })).body.id;
    const venues = [await venue(PUBLIC_PLACE), await venue(DRAFT_PLACE), await venue(SECRET_PLACE)];
    const organizers = [await organizer(PUBLIC_CLUB), await organizer(PRIVATE_CLUB)];
    eventId = (
      await events.create(
        { ...WHEN, title: "Linked night", slug: "linked-night", venue: venues, organizer: organizers },
        editor,
      )
    ).id;
  });

  it("shows a draft venue and a private organizer only to readers of them, a protected venue's address only to its editors", async () => {
    for (const [name, user] of readers()) {
      const byId = await server.call("GET /events/{id}", { ...as(user), params: { id: eventId } });
      expect(linkedOf(byId.body), `${name}, by id`).toEqual(EXPECTED[name]);
      const bySlug = await server.call("GET /events/by-slug/{slug}", { ...as(user), params: { slug: "linked-night" } });
      expect(bySlug.body, `${name}, by slug`).toEqual(byId.body);
      const list = await events.list({ include: [eventId] }, as(user));
      expect(list.body.events.map(linkedOf), `${name}, list`).toEqual([EXPECTED[name]]);
      const trpc = await server.client(user).events.get.query({ id: eventId });
      expect(trpc, `${name}, tRPC`).toEqual(byId.body);
      const trpcList = await server.client(user).events.list.query({ include: [eventId] });
      expect(trpcList.events, `${name}, tRPC list`).toEqual(list.body.events);
    }
  });

  it("leaves the hidden records out of the JSON-LD and of the public event page", async () => {
    const event = (await server.call("GET /events/{id}", { params: { id: eventId } })).body;
    const text = JSON.stringify(event.json_ld);
    expect(event.json_ld.location).toMatchObject({ name: "Public hall" });
    expect(event.json_ld.organizer).toEqual([expect.objectContaining({ name: "Public club" })]);
    for (const secret of ["Draft hall", "Private club", "private@example.test", "Hidden street 3", "+39 06 000"]) {
      expect(text).not.toContain(secret);
    }
    const page = await (await fetch(event.url)).text();
    for (const secret of ["Draft hall", "Draft street 2", "Private club", "private@example.test", "Hidden street 3"]) {
      expect(page).not.toContain(secret);
    }
  });

  it("writes in the iCalendar feed only a venue the reader may read, without the details its password protects", async () => {
    const editor = server.users.editor;
    const venue = async (body: Record<string, unknown>) =>
      (await server.call("POST /venues", { as: editor, body, status: 201 })).body.id;
    const draftFirst = await events.create(
      { ...WHEN, title: "Draft first", venue: [await venue({ ...DRAFT_PLACE, venue: "Draft only" })] },
      editor,
    );
    const secretFirst = await events.create(
      { ...WHEN, title: "Secret first", venue: [await venue({ ...SECRET_PLACE, venue: "Secret only" })] },
      editor,
    );
    const feed = async (user: TestUser | undefined) =>
      (
        await server.rest<string>("GET", `${EVENTS}.ics`, {
          ...as(user),
          query: { include: `${draftFirst.id},${secretFirst.id}` },
        })
      ).text.replace(/\r\n /g, "");
    const anonymous = await feed(undefined);
    expect(anonymous).not.toContain("Draft only");
    expect(anonymous).toContain("LOCATION:Secret only\r\n");
    expect(anonymous).not.toContain("Hidden street 3");
    const asEditor = await feed(editor);
    expect(asEditor).toContain("Draft only");
    expect(asEditor).toContain("Hidden street 3");
  });
});

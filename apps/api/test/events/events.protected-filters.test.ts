import { FIXTURE_PASSWORD, PROVIDERS, type TestUser } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { invalidParams } from "../support/errors.ts";
import { useTestServer } from "../support/server.ts";
import { EVENTS, eventsOf } from "./support.ts";

/**
 * The list's filters over a linked record match only through the records the caller may see: the venue and
 * organizer ids through those it may read, the places (geoloc, a search around a point) through the venues whose
 * details it sees (docs/behaviour.md, "Event lists").
 */

const WHEN = { start_date: "2030-05-01 20:00:00", end_date: "2030-05-01 22:00:00" };
const WINDOW = { start_date: "2030-01-01", end_date: "2030-12-31" };
const BERLIN = { geoloc_lat: 52.5, geoloc_lng: 13.4, geoloc_radius: 5 };
const PARIS = { geoloc_lat: 48.85, geoloc_lng: 2.35, geoloc_radius: 5 };
const NEW_YORK = { geoloc_lat: 40.71, geoloc_lng: -74, geoloc_radius: 5 };

describe.each(PROVIDERS)("filters over protected linked records (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const ids: Record<"open" | "secret" | "draft" | "drafted", number> = { open: 0, secret: 0, draft: 0, drafted: 0 };
  let secretVenue = 0;
  let draftVenue = 0;
  let draftOrganizer = 0;

  const listed = async (query: Record<string, string | number | boolean>, user?: TestUser) =>
    events.ids({ ...WINDOW, ...query }, user ? { as: user } : {});

  beforeAll(async () => {
    const { editor, author } = server.users;
    const venue = async (as: TestUser, body: Record<string, unknown>) =>
      (await server.call("POST /venues", { as, body, status: 201 })).body.id;
    const openVenue = await venue(editor, { venue: "Open hall", geo_lat: 52.5, geo_lng: 13.4 });
    secretVenue = await venue(author, {
      venue: "Secret hall",
      geo_lat: 48.85,
      geo_lng: 2.35,
      password: FIXTURE_PASSWORD,
    });
    draftVenue = await venue(editor, { venue: "Draft hall", geo_lat: 40.71, geo_lng: -74, status: "draft" });
    draftOrganizer = (
      await server.call("POST /organizers", {
        as: editor,
        body: { organizer: "Draft club", status: "draft" },
        status: 201,
      })
    ).body.id;
    ids.open = (await events.create({ ...WHEN, title: "Open", venue: openVenue }, editor)).id;
    ids.secret = (await events.create({ ...WHEN, title: "Secret", venue: secretVenue }, editor)).id;
    ids.draft = (await events.create({ ...WHEN, title: "Draft", venue: draftVenue }, editor)).id;
    ids.drafted = (await events.create({ ...WHEN, title: "Drafted", organizer: [draftOrganizer] }, editor)).id;
  });

  it("finds events around a point only through venues whose place the caller sees", async () => {
    const { subscriber, author, editor } = server.users;
    expect(await listed(BERLIN)).toEqual([ids.open]);
    expect(await listed(PARIS)).toEqual([]);
    expect(await listed(PARIS, subscriber)).toEqual([]);
    expect(await listed(PARIS, author)).toEqual([ids.secret]);
    expect(await listed(PARIS, editor)).toEqual([ids.secret]);
    expect(await listed({ ...PARIS, geoloc_radius: 20_000 })).not.toContain(ids.secret);
    expect(await listed(NEW_YORK)).toEqual([]);
    expect(await listed(NEW_YORK, author)).toEqual([]);
    expect(await listed(NEW_YORK, editor)).toEqual([ids.draft]);
    const trpc = await server.client().events.list.query({ ...WINDOW, ...PARIS });
    expect(trpc.total).toBe(0);
    const feed = await server.rest("GET", `${EVENTS}.ics`, { query: { ...WINDOW, ...PARIS } });
    expect(feed.status).toBe(200);
    expect(feed.text).not.toContain("SUMMARY:Secret");
  });

  it("counts a venue's coordinates for geoloc only where the caller sees them", async () => {
    const { subscriber, author, editor } = server.users;
    expect(await listed({ geoloc: true })).toEqual([ids.open]);
    expect(await listed({ geoloc: true }, subscriber)).toEqual([ids.open]);
    expect(await listed({ geoloc: true }, author)).toEqual([ids.open, ids.secret]);
    expect(await listed({ geoloc: true }, editor)).toEqual([ids.open, ids.secret, ids.draft]);
    expect(await listed({ geoloc: false })).toEqual([ids.secret, ids.draft, ids.drafted]);
    expect(await listed({ geoloc: false }, editor)).toEqual([ids.drafted]);
    const trpc = await server.client().events.list.query({ ...WINDOW, geoloc: true });
    expect(trpc.events.map((event) => event.id)).toEqual([ids.open]);
  });

  it("filters by a venue or organizer id only where the caller may read it: others are unknown ids", async () => {
    const { editor } = server.users;
    expect(await listed({ venue: secretVenue })).toEqual([ids.secret]);
    expect(await listed({ venue: draftVenue }, editor)).toEqual([ids.draft]);
    expect(await listed({ organizer: draftOrganizer }, editor)).toEqual([ids.drafted]);
    const draftVenueFailure = await server.fail("GET /events", 400, { query: { ...WINDOW, venue: draftVenue } });
    expect(draftVenueFailure.body).toEqual(invalidParams({ venue: `No venue with the id(s) ${draftVenue}.` }));
    const draftOrganizerFailure = await server.fail("GET /events", 400, {
      query: { ...WINDOW, organizer: draftOrganizer },
    });
    expect(draftOrganizerFailure.body).toEqual(
      invalidParams({ organizer: `No organizer with the id(s) ${draftOrganizer}.` }),
    );
    const unknown = await server.fail("GET /events", 400, { query: { ...WINDOW, venue: 999_999 } });
    expect(unknown.body).toEqual(invalidParams({ venue: "No venue with the id(s) 999999." }));
  });
});

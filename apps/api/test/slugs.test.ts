import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "./support/server.ts";

const GERMAN = { base: "/de/cal/events/v1" };
const WHEN = { start_date: "2030-06-01 20:00:00", end_date: "2030-06-01 22:00:00" };
/** "音乐会" as WordPress' sanitize_title stores it. */
const CONCERT_ZH = "%e9%9f%b3%e4%b9%90%e4%bc%9a";

/** Slugs are made as WordPress' sanitize_title makes them (docs/behaviour.md, "Slugs"), on every resource. */
describe.each(PROVIDERS)("slugs as WordPress makes them (%s)", (provider) => {
  const server = useTestServer(provider);
  const as = () => server.users.editor;

  it("removes accents and drops punctuation on events, venues, organizers, categories and tags", async () => {
    const event = await server.call("POST /events", { as: as(), body: { title: "Repair Café — “Fix it”!", ...WHEN } });
    const venue = await server.call("POST /venues", { as: as(), body: { venue: "Café Zürich" } });
    const organizer = await server.call("POST /organizers", { as: as(), body: { organizer: "Ærø Æbleskiver" } });
    const category = await server.call("POST /categories", { as: as(), body: { name: "Fête de la Musique" } });
    const tag = await server.call("POST /tags", { as: as(), body: { name: "Œuvre & Co." } });
    expect([event, venue, organizer, category, tag].map((created) => created.body.slug)).toEqual([
      "repair-cafe-fix-it",
      "cafe-zurich",
      "aero-aebleskiver",
      "fete-de-la-musique",
      "oeuvre-co",
    ]);
  });

  it("uses the German rules for German records", async () => {
    const venue = await server.call("POST /venues", { ...GERMAN, as: as(), body: { venue: "Straße der Ämter" } });
    const tag = await server.call("POST /tags", { ...GERMAN, as: as(), body: { name: "Größe" } });
    expect([venue.body.slug, tag.body.slug]).toEqual(["strasse-der-aemter", "groesse"]);
  });

  it("percent-encodes other scripts, finds them by the decoded and the encoded path, and serves their pages", async () => {
    const event = await server.call("POST /events", { as: as(), body: { title: "音乐会", ...WHEN } });
    const venue = await server.call("POST /venues", { as: as(), body: { venue: "音乐会" } });
    expect([event.body.slug, venue.body.slug]).toEqual([CONCERT_ZH, CONCERT_ZH]);
    expect(event.body.url).toBe(`${server.origin}/event/${CONCERT_ZH}/`);
    for (const slug of ["音乐会", CONCERT_ZH]) {
      const found = await server.call("GET /events/by-slug/{slug}", { params: { slug } });
      expect(found.body.id).toBe(event.body.id);
      const place = await server.call("GET /venues/by-slug/{slug}", { params: { slug } });
      expect(place.body.id).toBe(venue.body.id);
    }
    const page = await fetch(event.body.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<h1>音乐会</h1>");
    expect((await fetch(venue.body.url)).status).toBe(200);
  });

  it("keeps the longest slug within 200 characters, with its suffix, without cutting an encoded character", async () => {
    const title = `a${"日".repeat(100)}`;
    const first = await server.call("POST /events", { as: as(), body: { title, ...WHEN } });
    const second = await server.call("POST /events", { as: as(), body: { title, ...WHEN } });
    expect(first.body.slug).toBe(`a${"%e6%97%a5".repeat(22)}`);
    expect(second.body.slug).toBe(`a${"%e6%97%a5".repeat(21)}-2`);
    expect(second.body.slug.length).toBeLessThanOrEqual(200);
  });
});

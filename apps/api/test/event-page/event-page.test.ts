import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { eventsOf } from "../events/support.ts";
import { useTestServer } from "../support/server.ts";

const EVENTS = "/cal/events/v1/events";
const GERMAN = { base: "/de/cal/events/v1" };

const CONCERT = {
  title: "Jazz <night> & more",
  slug: "jazz-night",
  description: "<p>Live <b>music</b></p><script>alert(1)</script>",
  start_date: "2030-06-01 20:00:00",
  end_date: "2030-06-01 23:30:00",
  timezone: "Europe/Rome",
  venue: { venue: "Blue Hall", city: "Rome" },
  organizer: { organizer: "Jazz Club" },
};

/** The JSON-LD block of a page, parsed. */
function jsonLdOf(html: string): unknown {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  return match ? JSON.parse(match[1] ?? "") : undefined;
}

describe.each(PROVIDERS)("the public event page (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  let eventId = 0;

  beforeAll(async () => {
    eventId = (await events.create(CONCERT, server.users.editor)).id;
  });

  it("serves the event's title, dates in its zone, venue, organizer, calendar link and JSON-LD at its url", async () => {
    const event = (await server.call("GET /events/{id}", { params: { id: eventId } })).body;
    expect(event.url).toBe(`${server.origin}/event/jazz-night/`);
    const response = await fetch(event.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<h1>Jazz &lt;night&gt; &amp; more</h1>");
    expect(html).toContain('<time datetime="2030-06-01T18:00:00Z">June 1, 2030 at 8:00 PM GMT+2</time>');
    expect(html).toContain("Blue Hall, Rome");
    expect(html).toContain("Jazz Club");
    expect(html).toContain(`<a href="/cal/events/v1/events/${eventId}.ics">Add to calendar</a>`);
    expect(html).toContain("<p>Live music</p><p>alert(1)</p>");
    expect(html).not.toContain("<script>");
    expect(jsonLdOf(html)).toEqual(event.json_ld);
  });

  it("links an .ics that answers with the event (an organizer without email left out)", async () => {
    const response = await fetch(`${server.origin}${EVENTS}/${eventId}.ics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("SUMMARY:Jazz <night> & more");
  });

  it("serves a German event under /de in German", async () => {
    const created = await server.call("POST /events", {
      ...GERMAN,
      as: server.users.editor,
      body: { title: "Konzert", slug: "konzert", start_date: "2030-06-02 20:00:00", end_date: "2030-06-02 22:00:00" },
    });
    expect(created.body.url).toBe(`${server.origin}/de/event/konzert/`);
    const response = await fetch(created.body.url);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain("2. Juni 2030");
    expect((await fetch(`${server.origin}/event/konzert/`)).status).toBe(404);
  });

  it("points the url of a German event read without a prefix to its German page, and of an English one under /de to its English page", async () => {
    const created = await events.create(
      {
        title: "Lesung",
        slug: "lesung",
        start_date: "2030-06-04 19:00:00",
        end_date: "2030-06-04 21:00:00",
        ml_language: "de",
      },
      server.users.editor,
    );
    const german = (await server.call("GET /events/{id}", { params: { id: created.id } })).body;
    expect({ language: german.language, url: german.url }).toEqual({
      language: "de",
      url: `${server.origin}/de/event/lesung/`,
    });
    const page = await fetch(german.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<h1>Lesung</h1>");
    const english = (await server.call("GET /events/{id}", { ...GERMAN, params: { id: eventId } })).body;
    expect({ language: english.language, url: english.url }).toEqual({
      language: "en",
      url: `${server.origin}/event/jazz-night/`,
    });
    expect((await fetch(english.url)).status).toBe(200);
  });

  it("answers 404 with a page for unknown, draft, private and password-protected events", async () => {
    const hidden = [
      { slug: "a-draft", status: "draft" },
      { slug: "a-private", status: "private" },
      { slug: "a-protected", password: "secret" },
    ];
    for (const fields of hidden) {
      await events.create(
        { title: "Hidden", start_date: "2030-06-03 10:00:00", end_date: "2030-06-03 11:00:00", ...fields },
        server.users.editor,
      );
    }
    for (const slug of ["no-such-event", "a-draft", "a-private", "a-protected"]) {
      const response = await fetch(`${server.origin}/event/${slug}/`);
      expect(response.status, slug).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await response.text();
      expect(html).toContain("<h1>Event not found</h1>");
      expect(html).not.toContain("Hidden");
    }
  });
});

describe.each(PROVIDERS)("events on a public site (CALENDAR_SITE_URL, %s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "UTC", siteUrl: "https://www.example.org/news" } });

  it("points url to the site, under the event's language prefix, and serves no page here", async () => {
    const created = await server.call("POST /events", {
      ...GERMAN,
      as: server.users.editor,
      body: { title: "Fest", slug: "fest", start_date: "2030-06-02 20:00:00", end_date: "2030-06-02 22:00:00" },
      status: 201,
    });
    expect(created.body.url).toBe("https://www.example.org/news/de/event/fest/");
    expect(created.body.rest_url).toBe(`${server.origin}/de${EVENTS}/${created.body.id}`);
    const response = await fetch(`${server.origin}/de/event/fest/`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
  });
});

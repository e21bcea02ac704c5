import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { eventsOf } from "../events/support.ts";
import { useTestServer } from "../support/server.ts";

const GERMAN = { base: "/de/cal/events/v1" };

/** The JSON-LD block of a page, parsed. */
function jsonLdOf(html: string): unknown {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  return match ? JSON.parse(match[1] ?? "") : undefined;
}

async function page(url: string) {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get("content-type"), html: await response.text() };
}

describe.each(PROVIDERS)("the public pages of venues, organizers, categories and tags (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const editor = () => server.users.editor;
  let concert: Awaited<ReturnType<typeof events.create>>;

  beforeAll(async () => {
    const music = await server.call("POST /categories", { as: editor(), body: { name: "Music" } });
    await server.call("POST /categories", { as: editor(), body: { name: "Jazz & Blues", parent: music.body.id } });
    concert = await events.create(
      {
        title: "Night <Concert>",
        start_date: "2030-06-01 20:00:00",
        end_date: "2030-06-01 22:00:00",
        timezone: "Europe/Rome",
        venue: { venue: "Blue Hall", address: "Via Roma 1", city: "Rome", description: "<p>A hall</p>" },
        organizer: { organizer: "Jazz Club", email: "club@example.org" },
        categories: ["Jazz & Blues"],
        tags: ["Late Night"],
      },
      editor(),
    );
  });

  it("serves the venue the event names at its url: name, address, the upcoming event linked, JSON-LD", async () => {
    const venue = Array.isArray(concert.venue) ? concert.venue[0] : concert.venue;
    expect(venue?.url).toBe(`${server.origin}/venue/blue-hall/`);
    const shown = await page(venue?.url ?? "");
    expect({ status: shown.status, type: shown.type }).toEqual({ status: 200, type: "text/html; charset=utf-8" });
    expect(shown.html).toContain('<html lang="en">');
    expect(shown.html).toContain("<h1>Blue Hall</h1>");
    expect(shown.html).toContain("Via Roma 1, Rome");
    expect(shown.html).toContain("<p>A hall</p>");
    expect(shown.html).toContain(`<a href="${concert.url}">Night &lt;Concert&gt;</a>`);
    expect(shown.html).toContain('<time datetime="2030-06-01T18:00:00Z">June 1, 2030 at 8:00 PM GMT+2</time>');
    const single = (await server.call("GET /venues/{id}", { params: { id: venue?.id ?? 0 } })).body;
    expect(jsonLdOf(shown.html)).toEqual([
      single.json_ld,
      {
        "@context": "http://schema.org",
        "@type": "Event",
        name: "Night <Concert>",
        url: concert.url,
        startDate: "2030-06-01T20:00:00+02:00",
        endDate: "2030-06-01T22:00:00+02:00",
      },
    ]);
  });

  it("serves the organizer, category (with its subcategories' events) and tag pages at their urls", async () => {
    const [organizer] = concert.organizer;
    const category = await server.call("GET /categories/{id}", { params: { id: concert.categories[0]?.id ?? 0 } });
    const music = await server.call("GET /categories/{id}", { params: { id: category.body.parent } });
    const tag = await server.call("GET /tags/{id}", { params: { id: concert.tags[0]?.id ?? 0 } });
    const pages = [
      { url: organizer?.url, name: "Jazz Club", type: "Organization" },
      { url: category.body.url, name: "Jazz &amp; Blues", type: "DefinedTerm" },
      { url: music.body.url, name: "Music", type: "DefinedTerm" },
      { url: tag.body.url, name: "Late Night", type: "DefinedTerm" },
    ];
    expect(pages.map((shown) => shown.url)).toEqual([
      `${server.origin}/organizer/jazz-club/`,
      `${server.origin}/category/jazz-blues/`,
      `${server.origin}/category/music/`,
      `${server.origin}/tag/late-night/`,
    ]);
    for (const expected of pages) {
      const shown = await page(expected.url ?? "");
      expect(shown.status, expected.url).toBe(200);
      expect(shown.html).toContain(`<h1>${expected.name}</h1>`);
      expect(shown.html).toContain(`<a href="${concert.url}">`);
      const [record, event] = jsonLdOf(shown.html) as Array<Record<string, unknown>>;
      expect({ type: record?.["@type"], url: record?.url, event: event?.url }).toEqual({
        type: expected.type,
        url: expected.url,
        event: concert.url,
      });
    }
    expect((await page(`${server.origin}/organizer/jazz-club/`)).html).toContain(
      '<a href="mailto:club@example.org">club@example.org</a>',
    );
  });

  it("serves a German record under /de, in German, and not under the default prefix", async () => {
    const venue = await server.call("POST /venues", { ...GERMAN, as: editor(), body: { venue: "Große Halle" } });
    expect(venue.body.url).toBe(`${server.origin}/de/venue/grosse-halle/`);
    const shown = await page(venue.body.url);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('<html lang="de">');
    expect(shown.html).toContain("<p>No upcoming events.</p>");
    expect((await page(`${server.origin}/venue/grosse-halle/`)).status).toBe(404);
  });

  it("answers 404 with a page for unknown records and for draft and private venues and organizers", async () => {
    await server.call("POST /venues", { as: editor(), body: { venue: "Secret Cellar", status: "draft" } });
    await server.call("POST /organizers", { as: editor(), body: { organizer: "Hidden Society", status: "private" } });
    const missing = [
      ["venue", "no-such-venue", "Venue"],
      ["venue", "secret-cellar", "Venue"],
      ["organizer", "hidden-society", "Organizer"],
      ["category", "no-such-category", "Category"],
      ["tag", "no-such-tag", "Tag"],
    ];
    for (const [kind, slug, label] of missing) {
      const shown = await page(`${server.origin}/${kind}/${slug}/`);
      expect({ slug, status: shown.status, type: shown.type }).toEqual({
        slug,
        status: 404,
        type: "text/html; charset=utf-8",
      });
      expect(shown.html).toContain(`<h1>${label} not found</h1>`);
      expect(shown.html).not.toContain("Secret Cellar");
      expect(shown.html).not.toContain("Hidden Society");
    }
  });

  it("shows a password-protected venue by name only, as the API shows it to a visitor", async () => {
    await server.call("POST /venues", {
      as: editor(),
      body: { venue: "Locked Room", address: "Hidden Street 9", description: "Secret", password: "pw" },
    });
    const shown = await page(`${server.origin}/venue/locked-room/`);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("<h1>Locked Room</h1>");
    expect(shown.html).not.toContain("Hidden Street");
    expect(shown.html).not.toContain("Secret");
  });
});

describe.each(PROVIDERS)("record pages on a public site (CALENDAR_SITE_URL, %s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "UTC", siteUrl: "https://www.example.org/news" } });

  it("points a venue's url to the site and serves no page here", async () => {
    const venue = await server.call("POST /venues", { as: server.users.editor, body: { venue: "Blue Hall" } });
    expect(venue.body.url).toBe("https://www.example.org/news/venue/blue-hall/");
    expect((await fetch(`${server.origin}/venue/blue-hall/`)).status).toBe(404);
  });
});

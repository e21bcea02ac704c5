import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { linkedPostHappySuite } from "../suites/linked-posts/happy.ts";
import { linkedPostApi, VENUE } from "../suites/linked-posts/kinds.ts";
import { useTestServer } from "../support/server.ts";

linkedPostHappySuite(VENUE);

describe.each(PROVIDERS)("venues: search (%s)", (provider) => {
  const server = useTestServer(provider);
  const api = linkedPostApi(server, VENUE);

  beforeAll(async () => {
    const venues = [
      {
        venue: "Venue Foo",
        description: "lorem dolor",
        excerpt: "sed nunqua",
        address: "221b Baker Street",
        city: "London",
        province: "Greater London",
        state: "England",
        stateprovince: "England, Greater London",
        zip: "223345",
        phone: "111111",
      },
      {
        venue: "Venue Bar",
        description: "dolor sit",
        excerpt: "altera via",
        address: "10, Piccadilly Circus",
        city: "London",
        province: "Greater London",
        state: "England",
        stateprovince: "England, Greater London",
        zip: "223345",
        phone: "22222222",
      },
      {
        venue: "Venue Baz",
        description: "<p>sit <strong>nunqua</strong></p>",
        excerpt: "Caesar docet",
        address: "100, Avenue du Temple",
        city: "Paris",
        province: "Ile de France",
        state: "France",
        stateprovince: "France, Ile de France",
        zip: "23443",
        phone: "3333333",
        country: "Germany",
      },
      { venue: "Café Müller", city: "Wuppertal" },
    ];
    for (const venue of venues) await api.create(venue);
  });

  it("finds what docs/behaviour.md § Venues and organizers says a search finds (venues)", async () => {
    const expected: Record<string, number> = {
      venue: 3,
      "venue foo": 1,
      london: 2,
      "3333333": 1,
      "temple avenue": 1,
      "greater london": 2,
      france: 1,
      "france, ile de": 1,
      "223345": 2,
      woo: 0,
    };
    const found: Record<string, number> = {};
    for (const search of Object.keys(expected)) found[search] = (await api.list({ search })).body.total;
    expect(found).toEqual(expected);
  });

  it("needs every word inside one single field", async () => {
    expect(await api.names({ search: "london piccadilly" })).toEqual([]);
    expect(await api.names({ search: "foo london" })).toEqual([]);
    expect(await api.names({ search: "piccadilly circus 10" })).toEqual(["Venue Bar"]);
    expect(await api.names({ search: "dolor" })).toEqual(["Venue Bar", "Venue Foo"]);
  });

  it("searches name, description, excerpt, address, city, province, state, zip and phone, but not the country", async () => {
    const searches = ["foo", "lorem", "nunqua sit", "baker", "paris", "ile", "england greater", "23443", "22222222"];
    const found = await Promise.all(searches.map((search) => api.names({ search })));
    expect(found).toEqual([
      ["Venue Foo"],
      ["Venue Foo"],
      ["Venue Baz"],
      ["Venue Foo"],
      ["Venue Baz"],
      ["Venue Baz"],
      ["Venue Bar", "Venue Foo"],
      ["Venue Baz"],
      ["Venue Bar"],
    ]);
    expect(await api.names({ search: "germany" })).toEqual([]);
    expect(await api.names({ search: "strong" })).toEqual([]);
  });

  it("ignores case and accents, and treats wildcard characters as separators", async () => {
    for (const search of ["CAFE muller", "café MÜLLER", "müller_café", "muller%"]) {
      expect({ search, names: await api.names({ search }) }).toEqual({ search, names: ["Café Müller"] });
    }
    expect(await api.names({ search: "%" })).toEqual([]);
    expect(await api.names({ search: "_" })).toEqual([]);
  });
});

describe.each(PROVIDERS)("venues: map and coordinates (%s)", (provider) => {
  const server = useTestServer(provider);
  const api = linkedPostApi(server, VENUE);

  it("keeps coordinates and map flags, and builds the schema.org Place from them", async () => {
    const created = await api.create({
      venue: "Royal Albert Hall",
      address: "Kensington Gore",
      city: "London",
      state: "England",
      zip: "SW7 2AP",
      country: "United Kingdom",
      phone: "+44 20 7589 8212",
      website: "https://www.royalalberthall.com",
      geo_lat: "51.50095",
      geo_lng: -0.17745,
      show_map: "false",
      show_map_link: "0",
      image: "https://example.org/hall.png",
    });
    expect(created).toMatchObject({ geo_lat: 51.50095, geo_lng: -0.17745, show_map: false, show_map_link: false });
    const { body } = await server.call("GET /venues/{id}", { params: { id: created.id }, status: 200 });
    expect(body.json_ld).toEqual({
      "@context": "http://schema.org",
      "@type": "Place",
      name: "Royal Albert Hall",
      image: "https://example.org/hall.png",
      url: created.url,
      address: {
        "@type": "PostalAddress",
        streetAddress: "Kensington Gore",
        addressLocality: "London",
        addressRegion: "England",
        postalCode: "SW7 2AP",
        addressCountry: "United Kingdom",
      },
      geo: { "@type": "GeoCoordinates", latitude: 51.50095, longitude: -0.17745 },
      telephone: "+44 20 7589 8212",
      sameAs: "https://www.royalalberthall.com",
    });
    const cleared = await server.call("PATCH /venues/{id}", {
      params: { id: created.id },
      as: server.users.administrator,
      status: 200,
      body: { geo_lat: "", geo_lng: null, show_map: true },
    });
    expect(cleared.body.geo_lat).toBeUndefined();
    expect(cleared.body.geo_lng).toBeUndefined();
    expect([cleared.body.show_map, cleared.body.show_map_link]).toEqual([true, false]);
  });

  it("rejects coordinates out of range", async () => {
    for (const body of [{ geo_lat: 90.5 }, { geo_lat: "north" }, { geo_lng: -181 }]) {
      const response = await server.fail("POST /venues", 400, {
        as: server.users.administrator,
        body: { venue: "Nowhere", ...body },
      });
      expect({ status: response.status, params: Object.keys(response.body.data.params ?? {}) }).toEqual({
        status: 400,
        params: Object.keys(body),
      });
    }
  });

  it("creates a venue over tRPC with typed coordinates", async () => {
    const venue = await server
      .client(server.users.editor)
      .venues.create.mutate({ venue: "Typed", geo_lat: 0, geo_lng: 0 });
    expect([venue.geo_lat, venue.geo_lng]).toEqual([0, 0]);
  });
});

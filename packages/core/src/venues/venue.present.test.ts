import { describe, expect, it } from "vitest";
import type { PresentView } from "../shared/present-view.ts";
import { venueRecord } from "../testing/factories.ts";
import { presentVenue } from "./venue.present.ts";

const row = venueRecord({
  id: 4,
  name: "Lido",
  description: "<p>By the sea</p>",
  authorId: 2,
  language: "fr",
  postDate: "2025-06-01 12:00:00",
  postDateUtc: new Date("2025-06-01T10:00:00Z"),
  modified: "2025-06-02 12:00:00",
  modifiedUtc: new Date("2025-06-02T10:00:00Z"),
  phone: "0102",
  imageId: 9,
  image: { id: 9, url: "https://example.org/lido.webp?x=1" },
  address: "Promenade",
  city: "Nice",
  zip: "06000",
  stateprovince: "PACA",
  showMap: false,
  geoLat: 0,
  geoLng: 7.25,
});

const view = (overrides: Partial<PresentView> = {}): PresentView => ({
  links: { apiRoot: "https://example.org/fr/cal/events/v1" },
  redacted: false,
  jsonLd: false,
  translations: { en: 3 },
  ...overrides,
});

/** The fields every presentation of the row has, redacted or not. */
const bookkeeping = {
  id: 4,
  status: "publish",
  date: "2025-06-01 12:00:00",
  date_utc: "2025-06-01 10:00:00",
  modified: "2025-06-02 12:00:00",
  modified_utc: "2025-06-02 10:00:00",
  url: "https://example.org/fr/venue/lido/",
};
const closing = {
  global_id: "example.org?id=4",
  global_id_lineage: ["example.org?id=4"],
  language: "fr",
  translations: { en: 3 },
};

describe("presentVenue", () => {
  it("gives the reference's shape, leaving empty fields out and keeping a zero coordinate", () => {
    expect(presentVenue(row, view())).toEqual({
      ...bookkeeping,
      author: "2",
      venue: "Lido",
      description: "<p>By the sea</p>",
      slug: "lido",
      image: {
        url: "https://example.org/lido.webp?x=1",
        id: 9,
        extension: "webp",
        width: null,
        height: null,
        sizes: {},
      },
      address: "Promenade",
      city: "Nice",
      zip: "06000",
      phone: "0102",
      stateprovince: "PACA",
      geo_lat: 0,
      geo_lng: 7.25,
      show_map: false,
      show_map_link: true,
      ...closing,
    });
  });

  it("keeps the name but hides the details of a protected venue, in its JSON-LD too", () => {
    const redacted = presentVenue({ ...row, authorId: null }, view({ redacted: true, jsonLd: true }));
    expect(redacted).toEqual({
      ...bookkeeping,
      venue: "Lido",
      slug: "lido",
      json_ld: {
        "@context": "http://schema.org",
        "@type": "Place",
        name: "Lido",
        url: "https://example.org/fr/venue/lido/",
      },
      show_map: false,
      show_map_link: true,
      ...closing,
    });
  });

  it("describes the place for schema.org: the first of state/province fields as region, coordinates as geo", () => {
    expect(presentVenue(row, view({ jsonLd: true })).json_ld).toEqual({
      "@context": "http://schema.org",
      "@type": "Place",
      name: "Lido",
      description: "By the sea",
      image: "https://example.org/lido.webp?x=1",
      url: "https://example.org/fr/venue/lido/",
      address: {
        "@type": "PostalAddress",
        streetAddress: "Promenade",
        addressLocality: "Nice",
        addressRegion: "PACA",
        postalCode: "06000",
      },
      geo: { "@type": "GeoCoordinates", latitude: 0, longitude: 7.25 },
      telephone: "0102",
    });
    const bare = { ...row, address: "", city: "", zip: "", stateprovince: "", geoLat: null, phone: "", image: null };
    expect(presentVenue(bare, view({ jsonLd: true })).json_ld).toEqual({
      "@context": "http://schema.org",
      "@type": "Place",
      name: "Lido",
      description: "By the sea",
      url: "https://example.org/fr/venue/lido/",
    });
  });
});

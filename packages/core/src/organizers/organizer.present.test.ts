import { describe, expect, it } from "vitest";
import { organizerRecord } from "../testing/factories.ts";
import { presentOrganizer } from "./organizer.present.ts";

const row = organizerRecord({
  id: 11,
  name: "Les Amis",
  excerpt: "Friends",
  status: "draft",
  authorId: 5,
  postDate: "2025-01-01 00:00:00",
  postDateUtc: new Date("2025-01-01T00:00:00Z"),
  modified: "2025-01-01 00:00:00",
  modifiedUtc: new Date("2025-01-01T00:00:00Z"),
  password: "x",
  website: "https://amis.example",
  email: "amis at example",
});

const links = { apiRoot: "http://localhost:3000/cal/events/v1" };

describe("presentOrganizer", () => {
  it("gives the reference's shape with the contact fields and an Organization JSON-LD", () => {
    expect(presentOrganizer(row, { links, redacted: false, jsonLd: true, translations: {} })).toEqual({
      id: 11,
      author: "5",
      status: "draft",
      date: "2025-01-01 00:00:00",
      date_utc: "2025-01-01 00:00:00",
      modified: "2025-01-01 00:00:00",
      modified_utc: "2025-01-01 00:00:00",
      url: "http://localhost:3000/organizer/les-amis/",
      organizer: "Les Amis",
      excerpt: "Friends",
      slug: "les-amis",
      website: "https://amis.example",
      email: "amis at example",
      json_ld: {
        "@context": "http://schema.org",
        "@type": "Organization",
        name: "Les Amis",
        url: "http://localhost:3000/organizer/les-amis/",
        email: "amis at example",
        sameAs: "https://amis.example",
      },
      global_id: "localhost:3000?id=11",
      global_id_lineage: ["localhost:3000?id=11"],
      language: "en",
      translations: {},
    });
  });

  it("hides the excerpt and contact fields of a protected organizer but keeps its name", () => {
    const redacted = presentOrganizer(row, { links, redacted: true, jsonLd: false, translations: {} });
    expect(redacted.organizer).toBe("Les Amis");
    expect([redacted.excerpt, redacted.website, redacted.email, redacted.json_ld]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

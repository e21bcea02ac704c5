import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { linkedPostHappySuite } from "../suites/linked-posts/happy.ts";
import { linkedPostApi, ORGANIZER } from "../suites/linked-posts/kinds.ts";
import { useTestServer } from "../support/server.ts";

linkedPostHappySuite(ORGANIZER);

describe.each(PROVIDERS)("organizers: search (%s)", (provider) => {
  const server = useTestServer(provider);
  const api = linkedPostApi(server, ORGANIZER);

  beforeAll(async () => {
    const organizers = [
      { organizer: "Organizer one", phone: "111111111", email: "one@common.com", website: "http://one.com" },
      { organizer: "Organizer two", phone: "111112222", email: "two@common.com", website: "http://two.com" },
      {
        organizer: "Organizer three",
        phone: "333333333",
        email: "three@three.com",
        website: "http://three.com",
        description: "Runs the <em>Théâtre</em> festival",
        excerpt: "Since 1999",
      },
    ];
    for (const organizer of organizers) await api.create(organizer);
  });

  it("finds what docs/behaviour.md § Venues and organizers says a search finds (organizers)", async () => {
    const expected: Record<string, string[]> = {
      "1111": ["Organizer two", "Organizer one"],
      "@common.com": ["Organizer two", "Organizer one"],
      "http://one.com": ["Organizer one"],
      "three@three.com": ["Organizer three"],
    };
    const found: Record<string, string[]> = {};
    for (const search of Object.keys(expected)) found[search] = await api.names({ search });
    expect(found).toEqual(expected);
  });

  it("searches name, description and excerpt, each field on its own", async () => {
    expect(await api.names({ search: "organizer" })).toHaveLength(3);
    expect(await api.names({ search: "THEATRE festival" })).toEqual(["Organizer three"]);
    expect(await api.names({ search: "1999" })).toEqual(["Organizer three"]);
    expect(await api.names({ search: "one two" })).toEqual([]);
    expect(await api.names({ search: "organizer 1999" })).toEqual([]);
  });
});

describe.each(PROVIDERS)("organizers: contact fields (%s)", (provider) => {
  const server = useTestServer(provider);
  const api = linkedPostApi(server, ORGANIZER);

  it("keeps the email as written, even when it is no address, and builds the schema.org Organization", async () => {
    const { body: created } = await server.call("POST /organizers", {
      as: server.users.administrator,
      body: { organizer: "Troupe", email: "not an email", phone: "42", website: "https://troupe.example" },
      status: 201,
    });
    expect(created.email).toBe("not an email");
    const { body } = await server.call("GET /organizers/{id}", { params: { id: created.id } });
    expect(body.json_ld).toEqual({
      "@context": "http://schema.org",
      "@type": "Organization",
      name: "Troupe",
      url: created.url,
      telephone: "42",
      email: "not an email",
      sameAs: "https://troupe.example",
    });
  });

  it("keeps phone, email and website on an update that does not send them", async () => {
    const created = await api.create({
      organizer: "Keeper",
      email: "k@example.org",
      phone: "7",
      website: "https://k.example",
    });
    const updated = await server
      .client(server.users.editor)
      .organizers.update.mutate({ id: created.id, organizer: "Keeper 2" });
    expect(updated).toMatchObject({
      organizer: "Keeper 2",
      email: "k@example.org",
      phone: "7",
      website: "https://k.example",
    });
  });
});

import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { FORBIDDEN_MESSAGE, invalidParams, restError, restFailure, trpcFailure } from "../support/errors.ts";
import { useTestServer } from "../support/server.ts";
import { eventsOf } from "./support.ts";

/** docs/behaviour.md, "Languages and translations": attaching a translation needs the right to edit the original. */

const WHEN = { start_date: "2030-06-01 10:00:00", end_date: "2030-06-01 11:00:00" };

function notAllowedToTranslate(status: 401 | 403, noun: string) {
  return restError(status, "rest_forbidden", FORBIDDEN_MESSAGE, {
    params: { translation_of: `Adding a translation needs the right to edit the ${noun} translated.` },
  });
}

describe.each(PROVIDERS)("attaching translations (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const users = () => server.users;

  const groupOf = async (id: number) =>
    (await server.db.event.findUniqueOrThrow({ where: { id }, select: { translationGroup: true } })).translationGroup;

  it("refuses a contributor's or author's new translation of an event it may read but not edit, writing nothing", async () => {
    const original = await events.create({ ...WHEN, title: "Editor's concert" }, users().editor);
    const before = await server.db.event.count();
    for (const role of ["contributor", "author"] as const) {
      const refused = await server.fail("POST /events", 403, {
        as: users()[role],
        base: "/de/cal/events/v1",
        body: { ...WHEN, title: "Konzert", translation_of: original.id },
      });
      expect(refused.body).toEqual(notAllowedToTranslate(403, "event"));
      expect(
        await trpcFailure(
          server
            .client(users()[role])
            .events.create.mutate({ ...WHEN, title: "Konzert", translation_of: original.id, ml_language: "de" }),
        ),
      ).toEqual(restFailure(refused));
    }
    const anonymous = await server.fail("POST /events", 401, {
      base: "/de/cal/events/v1",
      body: { ...WHEN, title: "Konzert", translation_of: original.id },
    });
    expect(anonymous.body).toEqual(notAllowedToTranslate(401, "event"));
    expect(await server.db.event.count()).toBe(before);
    expect(await groupOf(original.id)).toBeNull();
    const read = await server.call("GET /events/{id}", { params: { id: original.id } });
    expect(read.body.translations).toEqual({});
  });

  it("refuses an update that moves the writer's own event into the group of an event it may not edit", async () => {
    const original = await events.create({ ...WHEN, title: "Administrator's concert" });
    const own = await events.create({ ...WHEN, title: "Konzert des Autors", ml_language: "de" }, users().author);
    for (const route of ["PATCH /events/{id}", "PUT /events/{id}", "POST /events/{id}"] as const) {
      const refused = await server.fail(route, 403, {
        as: users().author,
        params: { id: own.id },
        body: { translation_of: original.id, title: "Renamed" },
      });
      expect(refused.body).toEqual(notAllowedToTranslate(403, "event"));
    }
    const bySlug = await server.fail("PATCH /events/by-slug/{slug}", 403, {
      as: users().author,
      base: "/de/cal/events/v1",
      params: { slug: own.slug },
      body: { translation_of: original.id },
    });
    expect(bySlug.body).toEqual(notAllowedToTranslate(403, "event"));
    expect(await groupOf(original.id)).toBeNull();
    expect(await groupOf(own.id)).toBeNull();
    expect((await server.db.event.findUniqueOrThrow({ where: { id: own.id } })).title).toBe("Konzert des Autors");
  });

  it("answers a translation of an event the writer may not read as one of an unknown event", async () => {
    const draft = await events.create({ ...WHEN, title: "Secret draft", status: "draft" }, users().editor);
    const refused = await server.fail("POST /events", 400, {
      as: users().author,
      base: "/fr/cal/events/v1",
      body: { ...WHEN, title: "Brouillon", translation_of: draft.id },
    });
    expect(refused.body).toEqual(invalidParams({ translation_of: `No other event with the id ${draft.id}.` }));
    const unknown = await server.fail("POST /events", 400, {
      as: users().author,
      base: "/fr/cal/events/v1",
      body: { ...WHEN, title: "Brouillon", translation_of: 99_999 },
    });
    expect(unknown.body).toEqual(invalidParams({ translation_of: "No other event with the id 99999." }));
  });

  it("lets the owner who may edit an event, and editors, attach translations to it", async () => {
    const own = await events.create({ ...WHEN, title: "Author's night" }, users().author);
    const german = await events.create(
      { ...WHEN, title: "Nacht des Autors", ml_language: "de", translation_of: own.id },
      users().author,
    );
    const french = await events.create(
      { ...WHEN, title: "Nuit de l'auteur", ml_language: "fr", translation_of: own.id },
      users().editor,
    );
    expect(german.translations).toEqual({ en: own.id });
    expect(french.translations).toEqual({ en: own.id, de: german.id });
  });

  it("refuses a contributor's translation of its own event once published, as it may no longer edit it", async () => {
    const published = await events.create({
      ...WHEN,
      title: "Contributor's published night",
      author: users().contributor.id,
    });
    const refused = await server.fail("POST /events", 403, {
      as: users().contributor,
      body: { ...WHEN, title: "Nacht", ml_language: "de", translation_of: published.id },
    });
    expect(refused.body).toEqual(notAllowedToTranslate(403, "event"));
  });

  for (const kind of [
    { plural: "venues", singular: "venue", field: "venue" },
    { plural: "organizers", singular: "organizer", field: "organizer" },
  ] as const) {
    it(`refuses an author's translation of an editor's published ${kind.singular}, creating or updating nothing`, async () => {
      const original = await server.call(`POST /${kind.plural}`, {
        as: users().editor,
        body: { [kind.field]: `Editor's ${kind.singular}` },
      });
      const count = () => (kind.plural === "venues" ? server.db.venue.count() : server.db.organizer.count());
      const before = await count();
      const refused = await server.fail(`POST /${kind.plural}`, 403, {
        as: users().author,
        base: "/de/cal/events/v1",
        body: { [kind.field]: `Übersetzung ${kind.singular}`, translation_of: original.body.id },
      });
      expect(refused.body).toEqual(notAllowedToTranslate(403, kind.singular));
      const rpc = server.procedures(users().author);
      expect(
        await trpcFailure(
          rpc.mutation(`${kind.plural}.create`, {
            [kind.field]: `Übersetzung ${kind.singular}`,
            translation_of: original.body.id,
            ml_language: "de",
          }),
        ),
      ).toEqual(restFailure(refused));
      expect(await count()).toBe(before);
      const own = await server.call(`POST /${kind.plural}`, {
        as: users().author,
        base: "/de/cal/events/v1",
        body: { [kind.field]: `Eigene ${kind.singular}` },
      });
      const update = await server.fail(`PATCH /${kind.plural}/{id}`, 403, {
        as: users().author,
        params: { id: own.body.id },
        body: { translation_of: original.body.id },
      });
      expect(update.body).toEqual(notAllowedToTranslate(403, kind.singular));
      const after = await server.call(`GET /${kind.plural}/{id}`, {
        as: users().editor,
        params: { id: original.body.id },
      });
      expect(after.body.translations).toEqual({});
      const allowed = await server.call(`PATCH /${kind.plural}/{id}`, {
        as: users().editor,
        params: { id: own.body.id },
        body: { translation_of: original.body.id },
      });
      expect(allowed.body.translations).toEqual({ en: original.body.id });
    });
  }
});

import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { invalidParams, paramNames, restError, trpcFailure } from "../support/errors.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { useTestServer } from "../support/server.ts";
import { EVENTS, eventsOf } from "./support.ts";

const VALID = { title: "Valid", start_date: "2030-01-01 10:00:00", end_date: "2030-01-01 11:00:00" };

describe.each(PROVIDERS)("event errors (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const admin = () => server.users.administrator;
  /** A create that must be rejected with 400. */
  const post = (body: unknown) => server.fail("POST /events", 400, { as: admin(), body });

  it("names every missing required field of a create", async () => {
    const none = await post({ description: "no title" });
    expect(none.body).toEqual(
      restError(400, "rest_missing_callback_param", "Missing parameter(s): title, start_date, end_date", {
        params: ["title", "start_date", "end_date"],
      }),
    );
    const noEnd = await post({ title: "x", start_date: "2030-01-01" });
    expect(noEnd.body.data.params).toEqual(["end_date"]);
  });

  it.each([
    ["start_date", { start_date: "before my birthday" }],
    ["end_date", { end_date: "" }],
    ["title", { title: "  " }],
    ["description", { description: "" }],
    ["excerpt", { excerpt: " " }],
    ["slug", { slug: "" }],
    ["timezone", { timezone: "Mars/Base" }],
    ["website", { website: "foo" }],
    ["status", { status: "kinda_thinking_about_it" }],
    ["author", { author: "foo" }],
    ["date", { date: "foo" }],
    ["date_utc", { date_utc: "foo" }],
    ["featured", { featured: "maybe" }],
    ["all_day", { all_day: "yes please" }],
    ["cost", { cost: { amount: 1 } }],
    ["venue", { venue: "foo" }],
    ["organizer", { organizer: [{ website: "https://no-name.example" }] }],
    ["image", { image: "foo bar" }],
    ["categories", { categories: [{ name: "object" }] }],
    ["post_parent", { post_parent: "foo" }],
    ["ml_language", { ml_language: "xx" }],
  ])("rejects an invalid %s with 400 naming it", async (name, field) => {
    const { body } = await post({ ...VALID, ...field });
    expect([body.code, paramNames(body)]).toEqual(["rest_invalid_param", [name]]);
    expect(body.message).toBe(`Invalid parameter(s): ${name}`);
  });

  it.each([
    [
      "an end before the start",
      { end_date: "2030-01-01 09:00:00" },
      { end_date: "The end must not be before the start." },
    ],
    ["an unknown author", { author: 99_999 }, { author: "No user with the id 99999." }],
    ["an unknown parent", { post_parent: 99_999 }, { post_parent: "No other event with the id 99999." }],
    ["an unknown venue id", { venue: 99_999 }, { venue: "No venue with the id(s) 99999." }],
    ["unknown organizer ids", { organizer: "99998,99999" }, { organizer: "No organizer with the id(s) 99998, 99999." }],
    ["an unknown image id", { image: 99_999 }, { image: "No image with id 99999." }],
    [
      "an unknown event to translate",
      { translation_of: 99_999 },
      { translation_of: "No other event with the id 99999." },
    ],
  ])("rejects %s with 400 and its reason", async (_name, field, params) => {
    const response = await post({ ...VALID, ...field });
    expect(response.body).toEqual(invalidParams(params));
  });

  it("answers an {id} that is not a venue or organizer with invalid-linked-post-id", async () => {
    const expected = restError(400, "invalid-linked-post-id", "The provided linked post ID is not valid");
    for (const field of [{ venue: { id: 99_999 } }, { organizer: [{ organizer: "Fine" }, { id: 99_999 }] }]) {
      const response = await post({ ...VALID, ...field });
      expect(response.body).toEqual(expected);
    }
  });

  it("answers malformed JSON with rest_invalid_json", async () => {
    const response = await server.fail("POST /events", 400, {
      as: admin(),
      body: "{nope",
      contentType: "application/json",
    });
    expect(response.body).toEqual(restError(400, "rest_invalid_json", "Invalid JSON body passed."));
  });

  it("leaves nothing behind when a create fails after creating linked records", async () => {
    const counts = async () => [
      await server.db.event.count(),
      await server.db.venue.count(),
      await server.db.organizer.count(),
      await server.db.category.count(),
      await server.db.image.count(),
    ];
    const before = await counts();
    const failedLate = await post({
      ...VALID,
      title: "Atomic",
      venue: { venue: "Atomic Hall" },
      organizer: [{ organizer: "Atomic Org" }],
      categories: ["Atomic Cat"],
      image: 99_999,
    });
    expect(failedLate.body.data.params).toEqual({ image: "No image with id 99999." });
    await post({
      ...VALID,
      venue: { venue: "Atomic Hall" },
      organizer: [{ organizer: "Atomic Org" }, { phone: "no name" }],
    });
    expect(await counts()).toEqual(before);
  });

  it("leaves an event unchanged when an update fails", async () => {
    const created = await events.create({ ...VALID, title: "Unchanged", categories: ["Kept Cat"] });
    const venues = await server.db.venue.count();
    await server.fail("PATCH /events/{id}", 400, {
      params: { id: created.id },
      as: admin(),
      body: { title: "Changed", venue: { venue: "Never Hall" }, categories: ["Never Cat"], image: 99_999 },
    });
    const after = await server.call("GET /events/{id}", { params: { id: created.id }, status: 200 });
    const { json_ld: _jsonLd, ...unchanged } = after.body;
    expect(unchanged).toEqual(created);
    expect(await server.db.venue.count()).toBe(venues);
    expect(await server.db.category.count({ where: { name: "Never Cat" } })).toBe(0);
  });

  it("rejects an update moving the start after the stored end", async () => {
    const created = await events.create(VALID);
    const response = await server.fail("PATCH /events/{id}", 400, {
      params: { id: created.id },
      as: admin(),
      body: { start_date: "2030-01-01 12:00:00" },
    });
    expect(response.body).toEqual(invalidParams({ end_date: "The end must not be before the start." }));
  });

  it("rejects a translation into a language its group already has", async () => {
    const english = await events.create({ ...VALID, title: "Original" });
    await events.create({ ...VALID, title: "Übersetzung", ml_language: "de", translation_of: english.id });
    const second = await post({ ...VALID, ml_language: "de", translation_of: english.id });
    expect(second.body).toEqual(
      invalidParams({ translation_of: `Event ${english.id} already has a translation in "de".` }),
    );
    const sameLanguage = await post({ ...VALID, translation_of: english.id });
    expect(sameLanguage.body).toEqual(
      invalidParams({ translation_of: `Event ${english.id} already has a translation in "en".` }),
    );
  });

  it("answers an unknown id with 404 rest-event-not-found, id 0 included", async () => {
    for (const [method, id] of [
      ["GET", 99_999],
      ["GET", 0],
      ["POST", 99_999],
      ["PUT", 99_999],
      ["PATCH", 99_999],
      ["DELETE", 99_999],
    ] as const) {
      const response = await server.fail(`${method} /events/{id}`, 404, {
        params: { id },
        as: admin(),
        body: method === "GET" || method === "DELETE" ? undefined : {},
      });
      expect([method, response.body]).toEqual([
        method,
        restError(404, "rest-event-not-found", `Event with ID ${id} does not exist.`),
      ]);
    }
  });

  it("answers a non-decimal id or an empty slug with 404 rest_no_route", async () => {
    for (const path of [`${EVENTS}/abc`, `${EVENTS}/0x10`, `${EVENTS}/by-slug/`, `${EVENTS}/1/extra`]) {
      const response = await server.rest<RestErrorBody>("GET", path);
      expect([path, response.status, response.body.code]).toEqual([path, 404, "rest_no_route"]);
    }
  });

  it("answers an unknown slug with 400 on every method, even anonymously", async () => {
    const expected = invalidParams({ slug: 'No event has the slug "nope" in this language.' });
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
      const response = await server.fail(`${method} /events/by-slug/{slug}`, 400, {
        params: { slug: "nope" },
        body: method === "GET" || method === "DELETE" ? undefined : { title: "x" },
      });
      expect([method, response.body]).toEqual([method, expected]);
    }
  });

  it.each([
    ["page", { page: "0" }],
    ["page", { page: "foo" }],
    ["per_page", { per_page: "-1" }],
    ["per_page", { per_page: "foo bar" }],
    ["start_date", { start_date: "before my birthday" }],
    ["ends_after", { ends_after: "nope" }],
    ["search", { search: "" }],
    ["categories", { categories: "" }],
    ["venue", { venue: "foo" }],
    ["include", { include: "foo-bar,23,89" }],
    ["post_parent", { post_parent: "foo-bar" }],
    ["featured", { featured: "maybe" }],
    ["ticketed", { ticketed: "maybe" }],
    ["strict_dates", { strict_dates: "maybe" }],
    ["geoloc_lat", { geoloc_lat: "91", geoloc_lng: "0" }],
    ["geoloc_radius", { geoloc_radius: "far" }],
    ["status", { status: "foo" }],
    ["ml_language", { ml_language: "xx" }],
  ])("rejects the list parameter %s when invalid", async (name, query) => {
    const { body } = await server.fail("GET /events", 400, { query, as: admin() });
    expect([body.code, paramNames(body)]).toEqual(["rest_invalid_param", [name]]);
  });

  it.each([
    [{ categories: "no-such-cat" }, { categories: "Unknown term(s): no-such-cat." }],
    [{ tags: "99999" }, { tags: "Unknown term(s): 99999." }],
    [{ venue: "99999" }, { venue: "No venue with the id(s) 99999." }],
    [{ organizer: "99999" }, { organizer: "No organizer with the id(s) 99999." }],
    [{ post_parent: "99999" }, { post_parent: "No event with the id 99999." }],
    [{ geoloc_lat: "41.9" }, { geoloc_lng: "Required together with geoloc_lat." }],
    [{ geoloc_lng: "12.5" }, { geoloc_lat: "Required together with geoloc_lng." }],
  ])("rejects unknown references in the list query (%o)", async (query, params) => {
    const response = await server.fail("GET /events", 400, { query });
    expect(response.body).toEqual(invalidParams(params));
  });

  /** docs/behaviour.md, "Bounds": a list parameter takes at most 100 items. */
  it.each(["include", "venue", "organizer", "categories", "tags"])(
    "refuses more than 100 items in the list filter %s, over REST and tRPC",
    async (name) => {
      const ids = Array.from({ length: 101 }, (_, index) => index + 1);
      const response = await server.fail("GET /events", 400, { query: { [name]: ids.join(",") } });
      expect(response.body).toEqual(invalidParams({ [name]: "At most 100 items." }));
      const rpc = await trpcFailure(server.client(admin()).events.list.query({ [name]: ids }));
      expect(rpc).toMatchObject({ status: 400, code: "rest_invalid_param", params: { [name]: "At most 100 items." } });
      const hundred = await server.rest("GET", EVENTS, { query: { [name]: ids.slice(0, 100).join(",") } });
      expect(hundred.status).not.toBe(500);
      expect(JSON.stringify(hundred.body)).not.toContain("At most 100 items.");
    },
  );

  it("reports the same errors through tRPC, with the domain code", async () => {
    const client = server.client(admin());
    expect(await trpcFailure(client.events.get.query({ id: 99_999 }))).toEqual({
      status: 404,
      code: "rest-event-not-found",
      message: "Event with ID 99999 does not exist.",
    });
    expect(await trpcFailure(client.events.getBySlug.query({ slug: "nope" }))).toMatchObject({
      status: 400,
      code: "rest_invalid_param",
    });
    expect(await trpcFailure(client.events.create.mutate({ ...VALID, end_date: "2029-01-01" }))).toEqual({
      status: 400,
      code: "rest_invalid_param",
      message: "Invalid parameter(s): end_date",
      params: { end_date: "The end must not be before the start." },
    });
    expect(
      await trpcFailure(client.events.list.query({ page: 999, start_date: "2030-01-01", end_date: "2030-01-02" })),
    ).toMatchObject({ status: 404, code: "event-archive-page-not-found" });
  });
});

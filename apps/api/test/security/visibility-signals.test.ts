import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import type { RestErrorBody } from "../../src/rest/envelope.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";
const DAY = { start_date: "2030-12-10 10:00:00", end_date: "2030-12-10 11:00:00" };

/**
 * What an anonymous caller can tell of records it may not see, as decided in docs/behaviour.md ("Slugs", "Which
 * answers are tagged by the change version"): that a slug belongs to an unpublished event (403, as WordPress and the
 * plugin answer for a private post), and that some write happened (list tags count every write); never what the
 * record holds.
 */
describe.each(PROVIDERS)("what anonymous callers can tell of unpublished records (%s)", (provider) => {
  const server = useTestServer(provider);

  it("tells a draft's slug from an unknown one, as by id, and shows nothing of it", async () => {
    await server.call("POST /events", {
      as: server.users.author,
      body: { ...DAY, title: "Secret plans", status: "draft", slug: "secret-plans", description: "Not yet" },
      status: 201,
    });
    const draft = await server.rest<RestErrorBody>("GET", `${API}/events/by-slug/secret-plans`);
    const unknown = await server.rest<RestErrorBody>("GET", `${API}/events/by-slug/no-such-plans`);
    expect([draft.status, draft.body.code]).toEqual([403, "event-not-accessible"]);
    expect([unknown.status, unknown.body.code]).toEqual([400, "rest_invalid_param"]);
    expect(draft.text).not.toMatch(/Secret plans|Not yet/);
  });

  it("sees a list's tag change with a draft's write, while the list itself stays the same", async () => {
    const path = `${API}/events?start_date=2030-12-01&end_date=2030-12-31`;
    const before = await server.rest("GET", path);
    await server.call("POST /events", {
      as: server.users.contributor,
      body: { ...DAY, title: "Contributor draft", status: "draft" },
      status: 201,
    });
    const after = await server.rest("GET", path);
    expect(after.text).toBe(before.text);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    const revalidated = await server.rest("GET", path, {
      headers: { "if-none-match": before.headers.get("etag") ?? "" },
    });
    expect(revalidated.status).toBe(200);
  });
});

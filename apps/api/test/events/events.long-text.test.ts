import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { EVENTS } from "./support.ts";

/** 200 KiB of text: over the old 65,535-character limit, well under the 1 MiB body limit. */
const LONG_TEXT = `<p>${"Long programme notes. ".repeat(Math.ceil((200 * 1024) / 22))}</p>`;

describe.each(PROVIDERS)("text fields bounded by the body limit only (%s)", (provider) => {
  const server = useTestServer(provider);

  it("stores and returns a 200 KiB event description whole", async () => {
    const created = await server.rest("POST", EVENTS, {
      as: server.users.editor,
      body: {
        title: "Festival",
        description: LONG_TEXT,
        start_date: "2030-05-01 10:00:00",
        end_date: "2030-05-01 12:00:00",
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.description).toBe(LONG_TEXT);
    const read = await server.rest("GET", `${EVENTS}/${created.body.id}`);
    expect(read.body.description).toBe(LONG_TEXT);
    expect(LONG_TEXT.length).toBeGreaterThan(200 * 1024);
  });

  it("stores a 200 KiB venue description and a 200 KiB category description", async () => {
    const venue = await server.rest("POST", "/cal/events/v1/venues", {
      as: server.users.editor,
      body: { venue: "Big Hall", description: LONG_TEXT },
    });
    expect(venue.status).toBe(201);
    expect((await server.rest("GET", `/cal/events/v1/venues/${venue.body.id}`)).body.description).toBe(LONG_TEXT);
    const category = await server.rest("POST", "/cal/events/v1/categories", {
      as: server.users.administrator,
      body: { name: "Festivals", description: LONG_TEXT },
    });
    expect(category.status).toBe(201);
    expect((await server.rest("GET", `/cal/events/v1/categories/${category.body.id}`)).body.description).toBe(
      LONG_TEXT,
    );
  });

  it("answers 413 for a description over the body limit", async () => {
    const response = await server.rest("POST", EVENTS, {
      as: server.users.editor,
      body: {
        title: "Too much",
        description: "x".repeat(1024 * 1024),
        start_date: "2030-05-01 10:00:00",
        end_date: "2030-05-01 12:00:00",
      },
    });
    expect(response.status).toBe(413);
  });
});

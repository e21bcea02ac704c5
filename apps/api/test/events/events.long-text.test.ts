import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

/** 200 KiB of text: over the old 65,535-character limit, well under the 1 MiB body limit. */
const LONG_TEXT = `<p>${"Long programme notes. ".repeat(Math.ceil((200 * 1024) / 22))}</p>`;

describe.each(PROVIDERS)("text fields bounded by the body limit only (%s)", (provider) => {
  const server = useTestServer(provider);

  it("stores and returns a 200 KiB event description whole", async () => {
    const created = await server.call("POST /events", {
      status: 201,
      as: server.users.editor,
      body: {
        title: "Festival",
        description: LONG_TEXT,
        start_date: "2030-05-01 10:00:00",
        end_date: "2030-05-01 12:00:00",
      },
    });
    expect(created.body.description).toBe(LONG_TEXT);
    const read = await server.call("GET /events/{id}", { params: { id: created.body.id } });
    expect(read.body.description).toBe(LONG_TEXT);
    expect(LONG_TEXT.length).toBeGreaterThan(200 * 1024);
  });

  it("stores a 200 KiB venue description and a 200 KiB category description", async () => {
    const venue = await server.call("POST /venues", {
      status: 201,
      as: server.users.editor,
      body: { venue: "Big Hall", description: LONG_TEXT },
    });
    const readVenue = await server.call("GET /venues/{id}", { params: { id: venue.body.id } });
    expect(readVenue.body.description).toBe(LONG_TEXT);
    const category = await server.call("POST /categories", {
      status: 201,
      as: server.users.administrator,
      body: { name: "Festivals", description: LONG_TEXT },
    });
    const readCategory = await server.call("GET /categories/{id}", { params: { id: category.body.id } });
    expect(readCategory.body.description).toBe(LONG_TEXT);
  });

  it("answers 413 for a description over the body limit", async () => {
    await server.fail("POST /events", 413, {
      as: server.users.editor,
      body: {
        title: "Too much",
        description: "x".repeat(1024 * 1024),
        start_date: "2030-05-01 10:00:00",
        end_date: "2030-05-01 12:00:00",
      },
    });
  });
});

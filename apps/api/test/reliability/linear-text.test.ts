import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

/**
 * Text a client writes is processed in linear time: a 1 MiB description made of what makes a backtracking regular
 * expression quadratic (a run of `<` that no `>` closes, say) is saved and read back at once, where it used to take
 * minutes per request. The bound is generous: a few seconds, against minutes.
 */
const MIB = 1024 * 1024;
const PROMPT_MS = 5_000;
/** Each case makes one write and five reads; before the text processing was linear, one of them took minutes. */
const CASE_TIMEOUT_MS = 60_000;

const ADVERSARIAL_TEXTS = {
  "a run of <": "<".repeat(MIB),
  "<a repeated": "<a".repeat(MIB / 2),
  entities: "&amp;&#60;&lt;&".repeat(MIB / 16),
  "a paragraph of < with an unclosed break": `<p>${"<".repeat(MIB)}<br`,
  "blank lines with no paragraph end": `\n${" \t".repeat(MIB / 2)}x`,
};

/** The day every event of the file is on, as a list window. */
const DAY = { start_date: "2030-03-01", end_date: "2030-03-02" };

/** The answer of `request` and how long it took, which must be at most PROMPT_MS. */
async function promptly<T>(request: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const answer = await request();
  expect(performance.now() - started).toBeLessThan(PROMPT_MS);
  return answer;
}

describe.each(PROVIDERS)("text processing is linear (%s)", (provider) => {
  const server = useTestServer(provider, { bodyLimit: 4 * MIB });

  it.each(Object.entries(ADVERSARIAL_TEXTS))(
    "saves and reads back an event whose description is %s, each request within seconds",
    async (name, description) => {
      const title = `Linear ${name}`;
      const created = await promptly(() =>
        server.call("POST /events", {
          status: 201,
          as: server.users.editor,
          body: { title, description, start_date: "2030-03-01 10:00:00", end_date: "2030-03-01 12:00:00" },
        }),
      );
      const id = created.body.id;
      expect(created.body.description).toBe(description);

      const read = await promptly(() => server.call("GET /events/{id}", { params: { id } }));
      expect(read.body.description).toBe(description);

      const list = await promptly(() =>
        server.call("GET /events", { query: { ...DAY, search: "linear", per_page: 50 } }),
      );
      expect(list.body.events.map((event) => event.id)).toContain(id);

      const page = await promptly(() => fetch(read.body.url));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`<h1>Linear`);

      const file = await promptly(() => server.rest("GET", `/cal/events/v1/events/${id}.ics`));
      expect(file.status).toBe(200);
      expect(file.text).toContain("BEGIN:VEVENT");

      const rpc = await promptly(() => server.client().events.get.query({ id }));
      expect(rpc.description).toBe(description);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "saves and reads back a venue whose description is a run of <, each request within seconds",
    async () => {
      const description = "<".repeat(MIB);
      const created = await promptly(() =>
        server.call("POST /venues", {
          status: 201,
          as: server.users.editor,
          body: { venue: "Linear Hall", description },
        }),
      );
      const read = await promptly(() => server.call("GET /venues/{id}", { params: { id: created.body.id } }));
      expect(read.body.description).toBe(description);
      const found = await promptly(() => server.call("GET /venues", { query: { search: "Linear Hall" } }));
      expect(found.body.venues.map((venue) => venue.id)).toEqual([created.body.id]);
    },
    CASE_TIMEOUT_MS,
  );
});

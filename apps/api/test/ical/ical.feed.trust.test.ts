import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, EVENTS, eventsOf } from "../events/support.ts";
import { useTestServer } from "../support/server.ts";
import { expectNoStall } from "../support/stall.ts";

const MiB = 1 << 20;
const fill = (unit: string) => unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);
const WINDOW = "start_date=2031-01-01&end_date=2031-12-31";

/** Descriptions that overflowed html-to-text's recursive walk or kept it busy for seconds. */
const HOSTILE_DESCRIPTIONS: Record<string, string> = {
  "nested <div>": fill("<div>"),
  "a run of <a": fill("<a"),
  entities: fill("&amp;&#x41;&lt;&nbsp;&bogus;"),
  "unclosed tags": fill("<b"),
};

/** The feeds an event is in, each as the path a subscriber polls (and its headers). */
const FEEDS: Array<{ name: string; path: string; headers: Record<string, string> }> = [
  { name: "events.ics", path: `${BASE}/events.ics?${WINDOW}`, headers: {} },
  { name: "the /wp-json feed", path: `/wp-json/tribe/events/v1/events.ics?${WINDOW}`, headers: {} },
  { name: "Accept: text/calendar", path: `${EVENTS}?${WINDOW}`, headers: { accept: "text/calendar" } },
];

describe.each(PROVIDERS)("feeds of events with hostile descriptions (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const ids: number[] = [];

  beforeAll(async () => {
    for (const [index, description] of Object.values(HOSTILE_DESCRIPTIONS).entries()) {
      const { id } = await events.create(
        {
          title: `Hostile ${index}`,
          status: "publish",
          start_date: `2031-05-0${index + 1} 19:00:00`,
          end_date: `2031-05-0${index + 1} 21:00:00`,
          timezone: "Europe/Berlin",
        },
        server.users.author,
      );
      // Stored as it may already be, whatever a write accepts now.
      await server.db.event.update({ where: { id }, data: { description } });
      ids.push(id);
    }
    // The renderer's modules are loaded at the first feed (once per process, not per request).
    await server.rest("GET", `${BASE}/events.ics?start_date=2040-01-01&end_date=2040-01-02`);
  });

  it.each(FEEDS)("$name answers every event at once and does not stall the server", async ({ path, headers }) => {
    const { answer, requestMs } = await expectNoStall(server.origin, () => server.rest("GET", path, { headers }));
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/calendar");
    const uids = [...answer.text.matchAll(/^UID:event-(\d+)@/gm)].map((match) => Number(match[1]));
    expect(uids.sort((a, b) => a - b)).toEqual(ids);
    expect(answer.text.match(/^X-ALT-DESC;FMTTYPE=text\/html:/gm)).toHaveLength(ids.length);
    expect(requestMs).toBeLessThan(5_000);
  });

  it("each event's own .ics answers at once and does not stall the server", async () => {
    for (const id of ids) {
      const { answer } = await expectNoStall(server.origin, () => server.rest("GET", `${EVENTS}/${id}.ics`));
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      expect(answer.text).toContain(`UID:event-${id}@`);
    }
  });

  it("writes the plain text of the entities as a DESCRIPTION", async () => {
    const id = ids[Object.keys(HOSTILE_DESCRIPTIONS).indexOf("entities")];
    const answer = await server.rest("GET", `${EVENTS}/${id}.ics`);
    const description = answer.text.replace(/\r\n[ \t]/g, "").match(/^DESCRIPTION:(.*)$/m)?.[1] ?? "";
    expect(description.startsWith("&A<\u00a0&bogus\\;&A<")).toBe(true);
  });
});

import { PROVIDERS } from "@calendar/core/testing";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventsOf } from "../events/support.ts";
import { useTestServer } from "../support/server.ts";
import { foldingProblems, parseCalendar, veventsOf } from "./ical.support.ts";

/**
 * What our patch of ical-generator (`patches/ical-generator@10.2.0.patch`) saves per feed, observed through the
 * real server: the library folded lines with a new TextEncoder per character (≈ 10 s of a 2,000-event feed);
 * patched, it counts the octets from the UTF-16 code units and folds exactly as before.
 */

let encodersBuilt = 0;
const NativeTextEncoder = globalThis.TextEncoder;
/** Counts the encoders built by code that looks `TextEncoder` up at call time (ical-generator's folding). */
class CountedTextEncoder extends NativeTextEncoder {
  constructor() {
    super();
    encodersBuilt += 1;
  }
}

// Multi-byte characters (2, 3 and 4 octets in UTF-8) across the 75-octet fold points.
const TITLE = `Straßenfest — Ünterhaltung für alle 🎉 ${"Grüße aus Köln, 東京 und São Paulo 🎶 ".repeat(6)}`.trim();
const DESCRIPTION = "Ein Tag voller Musik, Tanz und Kulinarik; Eintritt frei. ".repeat(40).trim();

describe.each(PROVIDERS)("the feed's serialization cost (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);

  beforeAll(async () => {
    for (const day of [10, 11, 12]) {
      await events.create({
        title: TITLE,
        description: DESCRIPTION,
        start_date: `2030-05-${day} 10:00:00`,
        end_date: `2030-05-${day} 18:00:00`,
        timezone: "Europe/Berlin",
      });
    }
  });
  afterEach(() => {
    globalThis.TextEncoder = NativeTextEncoder;
  });

  it("folds a feed's long lines without a TextEncoder per character, at 75 octets, losing nothing", async () => {
    globalThis.TextEncoder = CountedTextEncoder;
    encodersBuilt = 0;
    const response = await server.rest("GET", "/cal/events/v1/events.ics", {
      query: { start_date: "2030-05-01", end_date: "2030-05-31" },
    });
    globalThis.TextEncoder = NativeTextEncoder;
    expect(response.status).toBe(200);
    // Unpatched: one per character of every line, over 10,000 for these three events.
    expect(encodersBuilt).toBeLessThan(10);
    expect(foldingProblems(response.text)).toEqual([]);
    const written = veventsOf(parseCalendar(response.text)).map((event) => [
      event.getFirstPropertyValue("summary"),
      event.getFirstPropertyValue("description"),
    ]);
    expect(written).toEqual([
      [TITLE, DESCRIPTION],
      [TITLE, DESCRIPTION],
      [TITLE, DESCRIPTION],
    ]);
  });
});

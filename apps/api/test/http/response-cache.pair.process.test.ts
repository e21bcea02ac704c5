import type { Provider } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useServerPair } from "../support/process.ts";

const API = "/cal/events/v1";
const YEAR = "start_date=2030-01-01&end_date=2030-12-31";

/** The fields of an event list that the test reads from its plain fetches. */
const listRead = z.object({ total: z.number(), events: z.array(z.object({ title: z.string() })) });

describe.each(PROVIDERS)("two server processes with their caches on one database (%s)", (provider: Provider) => {
  const pair = useServerPair(provider);

  it("changes the other instance's ETag and cached answer at once after a write through one", async () => {
    const url = `${pair.second.origin}${API}/events?${YEAR}`;
    const before = await fetch(url);
    const etag = before.headers.get("etag") ?? "";
    const empty = listRead.parse(await before.json());
    expect([before.status, empty.total]).toEqual([200, 0]);
    expect((await fetch(url, { headers: { "if-none-match": etag } })).status).toBe(304);
    const created = await fetch(`${pair.first.origin}${API}/events`, {
      method: "POST",
      headers: { authorization: pair.authorization, "content-type": "application/json" },
      body: JSON.stringify({
        title: "Seen at once",
        start_date: "2030-07-01 20:00:00",
        end_date: "2030-07-01 22:00:00",
      }),
    });
    expect(created.status).toBe(201);
    const after = await fetch(url, { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    const body = listRead.parse(await after.json());
    expect([body.total, body.events[0]?.title]).toEqual([1, "Seen at once"]);
    const again = await fetch(url, { headers: { "if-none-match": after.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
  });
});

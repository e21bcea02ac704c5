import type { Provider } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { type ServerInstance, useServerPair } from "./support/process.ts";

/**
 * The server keeps no state between requests, so several instances behind a load balancer share one database:
 * two server processes on one database answer each other's writes at once.
 */

const API = "/cal/events/v1";

/** A response body with the answering instance's address taken out of its links, to compare two instances. */
async function bodyOf(instance: ServerInstance, response: Response): Promise<unknown> {
  const host = new URL(instance.origin).host;
  return JSON.parse((await response.text()).replaceAll(instance.origin, "<origin>").replaceAll(host, "<host>"));
}

describe.each(PROVIDERS)("two server instances on one database (%s)", (provider: Provider) => {
  const pair = useServerPair(provider);

  const send = (instance: ServerInstance, method: string, path: string, body?: unknown) =>
    fetch(`${instance.origin}${API}${path}`, {
      method,
      headers: {
        authorization: pair.authorization,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("reads through one instance what was just written through the other, in every direction", async () => {
    const created = await send(pair.first, "POST", "/events", {
      title: "Shared stage",
      start_date: "2031-09-01 20:00:00",
      end_date: "2031-09-01 22:00:00",
      categories: ["Scaling"],
    });
    expect(created.status).toBe(201);
    const event = (await bodyOf(pair.first, created)) as { id: number };

    const readBack = await send(pair.second, "GET", `/events/${event.id}`);
    expect(readBack.status).toBe(200);
    const { json_ld: _jsonLd, ...readEvent } = (await bodyOf(pair.second, readBack)) as Record<string, unknown>;
    expect(readEvent).toEqual(event);

    const updated = await send(pair.second, "PATCH", `/events/${event.id}`, { title: "Shared stage, moved" });
    expect(updated.status).toBe(200);
    const readUpdate = await send(pair.first, "GET", `/events/by-slug/shared-stage`);
    expect(await bodyOf(pair.first, readUpdate)).toMatchObject({ id: event.id, title: "Shared stage, moved" });

    const [listFirst, listSecond] = await Promise.all(
      [pair.first, pair.second].map(async (instance) =>
        bodyOf(instance, await send(instance, "GET", "/categories?search=scaling")),
      ),
    );
    expect(listFirst).toEqual(listSecond);
    expect(listFirst).toMatchObject({ categories: [{ name: "Scaling", count: 1 }] });

    expect((await send(pair.first, "DELETE", `/events/${event.id}`)).status).toBe(200);
    const gone = await send(pair.second, "GET", `/events/${event.id}`);
    expect(gone.status).toBe(403);
    expect(await gone.json()).toMatchObject({ code: "event-no-longer-available" });
  });

  it("answers the same list through both instances while they take writes in turn", async () => {
    for (let index = 0; index < 6; index++) {
      const instance = index % 2 ? pair.second : pair.first;
      const response = await send(instance, "POST", "/events", {
        title: `Alternating ${index}`,
        start_date: "2031-10-01 10:00:00",
        end_date: "2031-10-01 11:00:00",
      });
      expect(response.status).toBe(201);
    }
    const query = "/events?search=alternating&start_date=2031-10-01&end_date=2031-10-01";
    const [fromFirst, fromSecond] = await Promise.all(
      [pair.first, pair.second].map(async (instance) => bodyOf(instance, await send(instance, "GET", query))),
    );
    expect(fromFirst).toEqual(fromSecond);
    expect(fromFirst).toMatchObject({ total: 6 });
  });
});

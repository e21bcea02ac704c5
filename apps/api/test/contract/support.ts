import type { RouterOutputs } from "@calendar/core";
import type { TestServer } from "../support/server.ts";

/** The roots a plugin's client may be pointed at: WordPress's, which they hard-code, and ours. */
export const CLIENT_ROOTS = ["/wp-json/tribe/events/v1", "/cal/events/v1"] as const;

export type EventList = RouterOutputs["events"]["list"];
export type EventDetail = RouterOutputs["events"]["create"];

/** `YYYY-MM-DD HH:MM:SS` in UTC (the test site's zone), `days` from now at `hour`. */
export function wallTimeInDays(days: number, hour: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  date.setUTCHours(hour, 0, 0, 0);
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/** A GET as a plain HTTP client makes it: the URL as given, JSON asked for; it must answer 200 JSON. */
export async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, { headers: { accept: "application/json", ...headers } });
  if (response.status !== 200) throw new Error(`GET ${url} → ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * A small calendar written through the API as an administrator: `count` upcoming events a day apart, each at its
 * own venue and with one organizer, category and tag, so that every list has items. Answers the events in start
 * order.
 */
export async function seedUpcomingEvents(server: TestServer, count: number): Promise<EventDetail[]> {
  const created: EventDetail[] = [];
  for (let day = 1; day <= count; day += 1) {
    const response = await server.call("POST /events", {
      as: server.users.administrator,
      status: 201,
      body: {
        title: `Concert ${day}`,
        start_date: wallTimeInDays(day, 19),
        end_date: wallTimeInDays(day, 21),
        venue: { venue: `Hall ${day}`, city: "Trento", country: "Italy" },
        organizer: { organizer: `Society ${day}` },
        categories: [`Genre ${day}`],
        tags: [`tag-${day}`],
      },
    });
    created.push(response.body);
  }
  return created;
}

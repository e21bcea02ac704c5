import type { TestUser } from "@calendar/core/testing";
import type { RestRequest, TestServer } from "../support/server.ts";

/** Five Tuesdays at 19:00 in Berlin, across the start of summer time (30 March 2031). */
export const WEEKLY = {
  start_date: "2031-03-11 19:00:00",
  end_date: "2031-03-11 20:30:00",
  timezone: "Europe/Berlin",
  recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=5"],
};
export const STARTS = [
  "2031-03-11 19:00:00",
  "2031-03-18 19:00:00",
  "2031-03-25 19:00:00",
  "2031-04-01 19:00:00",
  "2031-04-08 19:00:00",
];
export const WINDOW = { start_date: "2000-01-01", end_date: "2040-12-31", per_page: 50 };

/** The requests the series tests make of one test server, as an administrator unless told otherwise. */
export function seriesRequests(server: TestServer) {
  const admin = () => server.users.administrator;

  async function occurrencesOf(id: number, as: TestUser = admin(), query: RestRequest["query"] = {}) {
    const { body } = await server.call("GET /events/{id}/occurrences", {
      as,
      params: { id },
      query: { ...WINDOW, ...(typeof query === "object" ? query : {}) },
      status: 200,
    });
    return body.events;
  }

  /** A series of `WEEKLY` (with `extra` fields), as its occurrences. */
  async function createSeries(title: string, as: TestUser = admin(), extra: Record<string, unknown> = {}) {
    const created = await server.call("POST /events", { as, status: 201, body: { title, ...WEEKLY, ...extra } });
    return occurrencesOf(created.body.id);
  }

  function occurrenceAt<T>(events: readonly T[], index: number): T {
    const event = events[index];
    if (event === undefined) throw new Error(`No occurrence ${index} of ${events.length}.`);
    return event;
  }

  async function tokenNow(): Promise<string> {
    return (await server.call("GET /changes", { status: 200 })).body.next_token;
  }

  async function changedSince(token: string): Promise<Array<[number, string]>> {
    const { body } = await server.call("GET /changes", { as: admin(), query: { since: token }, status: 200 });
    return body.changes.map((change) => [change.id, change.action]);
  }

  return { admin, occurrencesOf, createSeries, occurrenceAt, tokenNow, changedSince };
}

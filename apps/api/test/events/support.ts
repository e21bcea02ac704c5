import type { TestUser } from "@calendar/core/testing";
import type { RestRequest, TestServer } from "../support/server.ts";

/** The base path of the REST routes, and the events collection under it. */
export const BASE = "/cal/events/v1";
export const EVENTS = `${BASE}/events`;

/** Event requests of one test server, as an administrator unless told otherwise; each must succeed. */
export function eventsOf(server: TestServer) {
  async function create(body: Record<string, unknown>, as: TestUser = server.users.administrator) {
    return (await server.call("POST /events", { as, body, status: 201 })).body;
  }

  function list(query: RestRequest["query"], request: Omit<RestRequest, "query"> = {}) {
    return server.call("GET /events", { ...request, query, status: 200 });
  }

  /** The ids a list returns. */
  async function ids(query: RestRequest["query"], request: Omit<RestRequest, "query"> = {}): Promise<number[]> {
    return (await list(query, request)).body.events.map((event) => event.id);
  }

  return { create, list, ids };
}

import { CalendarClientError } from "@calendar/client";
import type { TestUser } from "@calendar/core/testing";
import type { RestErrorBody } from "../support/rest-routes.ts";
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

/** The items of a field that is a list unless it holds one item (an event's `venue`). */
export function many<T extends object>(value: T | T[]): T[] {
  if (!Array.isArray(value)) throw new Error(`Expected a list, got one item: ${JSON.stringify(value)}`);
  return value;
}

/** The item at `index` of a list that must be long enough. */
export function itemAt<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`Expected an item at ${index}, got ${items.length} items.`);
  return item;
}

/** The REST error body of the reference. */
export function restError(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return { code, message, data: { status, ...extra } };
}

export function invalidParams(params: Record<string, string>) {
  return restError(400, "rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, { params });
}

/** The parameters a `rest_invalid_param` body names (the keys of its `data.params`). */
export function paramNames(body: RestErrorBody): string[] {
  const { params } = body.data;
  if (typeof params !== "object" || params === null) throw new Error(`No params in ${JSON.stringify(body)}`);
  return Object.keys(params);
}

/** The domain error a tRPC call failed with. */
export async function trpcError(call: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const error = await call.then(
    () => {
      throw new Error("The call succeeded.");
    },
    (caught: unknown) => caught,
  );
  if (!(error instanceof CalendarClientError)) throw error;
  return {
    status: error.data?.httpStatus ?? 0,
    code: error.data?.domain?.code ?? "",
    message: error.data?.domain?.message ?? "",
  };
}

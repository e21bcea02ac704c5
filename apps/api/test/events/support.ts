import type { TestUser } from "@calendar/core/testing";
import type { RestRequest, TestServer } from "../support/server.ts";

export const EVENTS = "/cal/events/v1/events";

/** Event requests of one test server, as an administrator unless told otherwise. */
export function eventsOf(server: TestServer) {
  async function create(body: Record<string, unknown>, as: TestUser = server.users.administrator) {
    const response = await server.rest("POST", EVENTS, { as, body });
    if (response.status !== 201) throw new Error(`Creating an event failed: ${response.status} ${response.text}`);
    return response.body;
  }

  function list(query: RestRequest["query"], request: Omit<RestRequest, "query"> = {}) {
    return server.rest("GET", EVENTS, { ...request, query });
  }

  /** The ids a list returns (it must succeed). */
  async function ids(query: RestRequest["query"], request: Omit<RestRequest, "query"> = {}): Promise<number[]> {
    const response = await list(query, request);
    if (response.status !== 200) throw new Error(`Listing events failed: ${response.status} ${response.text}`);
    return response.body.events.map((event: { id: number }) => event.id);
  }

  return { create, list, ids };
}

/** The REST error body of the reference. */
export function restError(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return { code, message, data: { status, ...extra } };
}

export function invalidParams(params: Record<string, string>) {
  return restError(400, "rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, { params });
}

/** The domain error a tRPC call failed with. */
export async function trpcError(call: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const error = (await call.then(
    () => {
      throw new Error("The call succeeded.");
    },
    (caught: unknown) => caught,
  )) as { data?: { httpStatus?: number; domain?: { code: string; message: string } } };
  return {
    status: error.data?.httpStatus ?? 0,
    code: error.data?.domain?.code ?? "",
    message: error.data?.domain?.message ?? "",
  };
}

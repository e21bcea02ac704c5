import { createCalendarClient } from "@calendar/client";
import type { Provider, Role } from "@calendar/core";
import { createUsersByRole, type TestUser, useTestDatabase } from "@calendar/core/testing";
import { getUntypedClient } from "@trpc/client";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { buildServer, type ServerOptions } from "../../src/server.ts";
import { type RestErrorBody, type RestRoute, type RestRoutes, type RouteParams, routeTarget } from "./rest-routes.ts";

export interface RestRequest {
  query?: Record<string, string | number | boolean | Array<string | number>> | string;
  /** A JSON body (objects are serialized), or a raw string with `contentType`. */
  body?: unknown;
  /** Sends the body as `application/x-www-form-urlencoded` (a string or a record). */
  form?: string | Record<string, string>;
  contentType?: string;
  /** Authenticates as this user (Bearer token) or with a raw Authorization header. */
  as?: TestUser | { authorization: string };
  headers?: Record<string, string>;
}

/** A typed call of a route: its path parameters, and the base path (default `/cal/events/v1`). */
export type RouteRequest<R extends RestRoute> = RestRequest & { base?: string } & (keyof RouteParams<R> extends never
    ? { params?: undefined }
    : { params: RouteParams<R> });

const DEFAULT_BASE = "/cal/events/v1";

/** The request and the answer, for a failed expectation to print. */
function describeExchange(method: string, path: string, request: RestRequest, status: number, text: string): string {
  const sent = { query: request.query, body: request.body ?? request.form, headers: request.headers };
  return `${method} ${path} ${JSON.stringify(sent)}\n→ ${status} ${text.slice(0, 2000)}`;
}

export interface RestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

function queryString(query: RestRequest["query"]): string {
  if (query === undefined) return "";
  if (typeof query === "string") return query ? `?${query}` : "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function authorizationOf(as: RestRequest["as"]): Record<string, string> {
  if (!as) return {};
  return { authorization: "authorization" in as ? as.authorization : `Bearer ${as.token}` };
}

function bodyOf(request: RestRequest): { body?: string; contentType?: string } {
  if (request.form !== undefined) {
    const body = typeof request.form === "string" ? request.form : new URLSearchParams(request.form).toString();
    return { body, contentType: request.contentType ?? "application/x-www-form-urlencoded" };
  }
  if (request.body === undefined) return {};
  if (typeof request.body === "string") return { body: request.body, contentType: request.contentType };
  return { body: JSON.stringify(request.body), contentType: request.contentType ?? "application/json" };
}

/** A real server on port 0 over a fresh database of one kind, with a user per role and request helpers. */
export function useTestServer(provider: Provider, options: Partial<Omit<ServerOptions, "handle">> = {}) {
  const database = useTestDatabase(provider);
  let server: FastifyInstance | undefined;
  let origin = "";
  let users: Record<Role, TestUser> | undefined;

  beforeAll(async () => {
    server = await buildServer({
      site: { timezone: "UTC" },
      bodyLimit: 1024 * 1024,
      ...options,
      handle: database.current.handle,
    });
    origin = await server.listen({ host: "127.0.0.1", port: 0 });
    users = await createUsersByRole(database.current.handle.db);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A REST call; `path` is relative to the server origin (e.g. `/cal/events/v1/events`). */
  async function rest<T = unknown>(method: string, path: string, request: RestRequest = {}): Promise<RestResponse<T>> {
    const { body, contentType } = bodyOf(request);
    const response = await fetch(`${origin}${path}${queryString(request.query)}`, {
      method,
      headers: {
        ...(contentType ? { "content-type": contentType } : {}),
        ...authorizationOf(request.as),
        ...request.headers,
      },
      ...(body !== undefined ? { body } : {}),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  /** A typed tRPC client, anonymous or as a user. */
  function client(as?: TestUser) {
    return createCalendarClient({ url: origin, ...(as ? { token: as.token } : {}) });
  }

  async function exchange<R extends RestRoute>(route: R, request: RouteRequest<R>) {
    const { method, path } = routeTarget(route, (request.params ?? {}) as Record<string, string | number>);
    const fullPath = `${request.base ?? DEFAULT_BASE}${path}`;
    const response = await rest(method, fullPath, request);
    return { response, describe: () => describeExchange(method, fullPath, request, response.status, response.text) };
  }

  /**
   * A call of a route that must succeed (any 2xx, or exactly `status`): the body is typed by the route's procedure
   * output; any other answer throws with the request and the body.
   */
  async function call<R extends RestRoute>(
    route: R,
    request: RouteRequest<R> & { status?: number },
  ): Promise<RestResponse<RestRoutes[R]>> {
    const { response, describe } = await exchange(route, request);
    const ok =
      request.status === undefined
        ? response.status >= 200 && response.status < 300
        : response.status === request.status;
    if (!ok) throw new Error(`Expected ${request.status ?? "a 2xx"}: ${describe()}`);
    return response as RestResponse<RestRoutes[R]>;
  }

  /** A call of a route that must fail with `status`: the body is the REST error envelope; any other answer throws. */
  async function fail<R extends RestRoute>(
    route: R,
    status: number,
    request: RouteRequest<R>,
  ): Promise<RestResponse<RestErrorBody>> {
    const { response, describe } = await exchange(route, request);
    if (response.status !== status) throw new Error(`Expected ${status}: ${describe()}`);
    return response as RestResponse<RestErrorBody>;
  }

  return {
    get db() {
      return database.current.handle.db;
    },
    get database() {
      return database.current;
    },
    get origin() {
      return origin;
    },
    /** Users `<role>1` with tokens, one per role. */
    get users(): Record<Role, TestUser> {
      if (!users) throw new Error("Users are created in beforeAll.");
      return users;
    },
    rest,
    call,
    fail,
    client,
    /**
     * The same client untyped: a procedure named by its path (`"events.create"`), any input, an unknown answer. For
     * input that is invalid on purpose, and for calls a test makes alike on every resource.
     */
    procedures(as?: TestUser) {
      return getUntypedClient(client(as));
    },
  };
}

export type TestServer = ReturnType<typeof useTestServer>;

import { createCalendarClient } from "@calendar/client";
import type { Provider, Role } from "@calendar/core";
import { createUsersByRole, type TestUser, useTestDatabase } from "@calendar/core/testing";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { buildServer, type ServerOptions } from "../../src/server.ts";

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

export interface RestResponse<T = any> {
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
  async function rest<T = any>(method: string, path: string, request: RestRequest = {}): Promise<RestResponse<T>> {
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
    /** A typed tRPC client, anonymous or as a user. */
    client(as?: TestUser) {
      return createCalendarClient({ url: origin, ...(as ? { token: as.token } : {}) });
    },
  };
}

export type TestServer = ReturnType<typeof useTestServer>;

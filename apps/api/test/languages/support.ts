import type { Language, RouterOutputs } from "@calendar/core";
import type { TestUser } from "@calendar/core/testing";
import { type Failure, restFailure, trpcFailure } from "../support/errors.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import type { TestServer } from "../support/server.ts";

export const ROOT = "/cal/events/v1";
export const LANGUAGES = ["en", "de", "fr", "zh-hans"] as const satisfies readonly Language[];

export type Resource = "events" | "venues" | "organizers" | "categories" | "tags";

/** A query as both transports take it: typed values (REST sends them as strings, arrays as repeated keys). */
export type Query = Record<string, string | number | boolean | Array<string | number>>;

/**
 * One way a request selects its language: a REST base and query (a prefix, `ml_language`, both, or neither), or
 * `ml_language` over tRPC. `linkRoot` and `linkParam` are what generated links must keep.
 */
export interface Selector {
  label: string;
  language: Language;
  transport: "rest" | "trpc";
  /** The REST base path (`/de/cal/events/v1`, …); tRPC links use the bare one. */
  root: string;
  query: { ml_language?: Language };
}

/** Another language than `language`, for a prefix the explicit parameter must win over. */
export function otherThan(language: Language): Language {
  return language === "de" ? "fr" : "de";
}

/** Every way of selecting `language`. */
export function selectorsOf(language: Language): Selector[] {
  const other = otherThan(language);
  return [
    { label: `the /${language} prefix`, language, transport: "rest", root: `/${language}${ROOT}`, query: {} },
    { label: `ml_language=${language}`, language, transport: "rest", root: ROOT, query: { ml_language: language } },
    {
      label: `ml_language=${language} under the /${other} prefix`,
      language,
      transport: "rest",
      root: `/${other}${ROOT}`,
      query: { ml_language: language },
    },
    {
      label: `tRPC ml_language=${language}`,
      language,
      transport: "trpc",
      root: ROOT,
      query: { ml_language: language },
    },
  ];
}

/** Neither prefix nor parameter: English. */
export const DEFAULT_SELECTOR: Selector = {
  label: "no prefix or parameter (English)",
  language: "en",
  transport: "rest",
  root: ROOT,
  query: {},
};

export const SELECTORS: readonly Selector[] = [DEFAULT_SELECTOR, ...LANGUAGES.flatMap(selectorsOf)];

/** `YYYY-MM-DD HH:MM:SS`, `days` from now at `hour` UTC (inside the event list's default window). */
export function daysAhead(days: number, hour = 10): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${date.toISOString().slice(0, 10)} ${String(hour).padStart(2, "0")}:00:00`;
}

/** What a resource's procedure answers, over tRPC as over REST (both return the same JSON). */
export type Answer<R extends Resource, P extends keyof RouterOutputs[R]> = RouterOutputs[R][P];
type WithSlugs = "events" | "venues" | "organizers";

/** The items of a list answer, which names them by its resource (`events`, `venues`, …). */
export function itemsOf<R extends Resource>(resource: R, list: Answer<R, "list">): Array<Answer<R, "get">> {
  const items = (list as Record<string, unknown>)[resource];
  if (!Array.isArray(items)) throw new Error(`Expected a list of ${resource}, got ${JSON.stringify(list)}`);
  return items;
}

/** Reads of one test server through a selector, alike over REST and tRPC. */
export function readerOf(server: TestServer, selector: Selector, as?: TestUser) {
  const request = (query: Query = {}) => ({ base: selector.root, query: { ...query, ...selector.query }, as });
  const trpc = <R extends Resource, P extends keyof RouterOutputs[R] & string>(
    resource: R,
    procedure: P,
    input: object,
  ) =>
    server.procedures(as).query(`${resource}.${procedure}`, { ...input, ...selector.query }) as Promise<Answer<R, P>>;
  return {
    async list<R extends Resource>(resource: R, query: Query = {}): Promise<Answer<R, "list">> {
      if (selector.transport === "trpc") return trpc(resource, "list", query);
      const response = await server.call(`GET /${resource as Resource}`, { ...request(query), status: 200 });
      return response.body as Answer<R, "list">;
    },
    async get<R extends Resource>(resource: R, id: number): Promise<Answer<R, "get">> {
      if (selector.transport === "trpc") return trpc(resource, "get", { id });
      const response = await server.call(`GET /${resource as Resource}/{id}`, {
        ...request(),
        params: { id },
        status: 200,
      });
      return response.body as Answer<R, "get">;
    },
    async getBySlug<R extends WithSlugs>(resource: R, slug: string): Promise<Answer<R, "getBySlug">> {
      if (selector.transport === "trpc") return trpc(resource, "getBySlug", { slug });
      const response = await server.call(`GET /${resource as WithSlugs}/by-slug/{slug}`, {
        ...request(),
        params: { slug },
        status: 200,
      });
      return response.body as Answer<R, "getBySlug">;
    },
    /** The failure of a by-slug read (it must fail). */
    async getBySlugFailure(resource: WithSlugs, slug: string): Promise<Failure> {
      if (selector.transport === "trpc") return trpcFailure(trpc(resource, "getBySlug", { slug }));
      const { base, ...unprefixed } = request();
      const path = `${base}/${resource}/by-slug/${encodeURIComponent(slug)}`;
      return restFailure(await server.rest<RestErrorBody>("GET", path, unprefixed));
    },
  };
}

/** Writes through a selector, as an administrator unless told otherwise; each must succeed. */
export function writerOf(server: TestServer, selector: Selector) {
  return {
    async create<R extends Resource>(
      resource: R,
      body: Record<string, unknown>,
      as: TestUser = server.users.administrator,
    ): Promise<Answer<R, "create">> {
      if (selector.transport === "trpc") {
        const input = { ...body, ...selector.query };
        return server.procedures(as).mutation(`${resource}.create`, input) as Promise<Answer<R, "create">>;
      }
      const request = { base: selector.root, as, query: selector.query, body, status: 201 };
      return (await server.call(`POST /${resource as Resource}`, request)).body as Answer<R, "create">;
    },
    async update<R extends Resource>(
      resource: R,
      id: number,
      body: Record<string, unknown>,
      as = server.users.administrator,
    ): Promise<Answer<R, "update">> {
      if (selector.transport === "trpc") {
        const input = { ...body, id, ...selector.query };
        return server.procedures(as).mutation(`${resource}.update`, input) as Promise<Answer<R, "update">>;
      }
      const request = { base: selector.root, params: { id }, as, query: selector.query, body, status: 200 };
      return (await server.call(`POST /${resource as Resource}/{id}`, request)).body as Answer<R, "update">;
    },
  };
}

/** Awaits labelled requests together; the outcomes come back under their labels, to compare at once. */
export async function outcomes<T extends Record<string, Promise<unknown>>>(
  requests: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.all(
    Object.entries(requests).map(async ([label, request]) => [label, await request] as const),
  );
  return Object.fromEntries(settled) as { [K in keyof T]: Awaited<T[K]> };
}

export const ids = (items: ReadonlyArray<{ id: number }>) => items.map((item) => item.id);

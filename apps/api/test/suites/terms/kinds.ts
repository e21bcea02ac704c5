import type { CalendarClient, RouterInputs } from "@calendar/client";
import { type Db, type RouterOutputs, recountTermEvents } from "@calendar/core";
import { create } from "@calendar/core/testing";
import type { RestRequest, RestResponse, TestServer } from "../../support/server.ts";

/**
 * Categories and tags behave alike; the shared suites run against either through this description. Events are
 * written straight into the database (the events API is tested on its own).
 */

export const API = "/cal/events/v1";

export interface TermLike {
  id: number;
  count: number;
  description: string;
  name: string;
  slug: string;
  taxonomy: string;
  parent?: number;
  meta: never[];
  url: string;
  urls: { self: string; collection: string; up?: string };
  language: string;
  translations: Partial<Record<string, number>>;
}

type ListInput = RouterInputs["tags"]["list"];
type CreateInput = RouterInputs["tags"]["create"];
type UpdateInput = RouterInputs["tags"]["update"];

/** The tRPC procedures of one kind of term, with the inputs both kinds take. */
export interface TermRpc {
  list(input: ListInput): Promise<{ items: TermLike[]; total: number; total_pages: number }>;
  get(input: { id: number; ml_language?: "en" | "de" | "fr" | "zh-hans" }): Promise<TermLike>;
  create(input: CreateInput): Promise<TermLike>;
  update(input: UpdateInput): Promise<TermLike>;
  delete(input: { id: number }): Promise<TermLike>;
}

/** The tRPC client's procedures of one kind of term, as far as the suites use them. */
interface TermProcedures<K extends string> {
  list: { query(input: ListInput): Promise<Record<K, TermLike[]> & { total: number; total_pages: number }> };
  get: { query(input: { id: number }): Promise<TermLike> };
  create: { mutate(input: CreateInput): Promise<TermLike> };
  update: { mutate(input: UpdateInput): Promise<TermLike> };
  delete: { mutate(input: { id: number }): Promise<TermLike> };
}

function rpcOf<K extends string>(key: K, procedures: TermProcedures<K>): TermRpc {
  return {
    list: async (input) => {
      const page = await procedures.list.query(input);
      return { items: page[key], total: page.total, total_pages: page.total_pages };
    },
    get: (input) => procedures.get.query(input),
    create: (input) => procedures.create.mutate(input),
    update: (input) => procedures.update.mutate(input),
    delete: (input) => procedures.delete.mutate(input),
  };
}

export interface TermKind {
  key: "categories" | "tags";
  noun: "category" | "tag";
  taxonomy: "tribe_events_cat" | "post_tag";
  hierarchical: boolean;
  path: string;
  rpc(client: CalendarClient): TermRpc;
  /** Links an event to terms of this kind, directly in the database (and counts the terms' events anew). */
  link(db: Db, eventId: number, termIds: number[]): Promise<void>;
  /** The term rows of this kind, for checking what the database holds. */
  rows(db: Db): Promise<Array<{ id: number; name: string; nameKey: string; slug: string; language: string }>>;
  linkCount(db: Db, termId: number): Promise<number>;
}

export const CATEGORIES: TermKind = {
  key: "categories",
  noun: "category",
  taxonomy: "tribe_events_cat",
  hierarchical: true,
  path: `${API}/categories`,
  rpc: (client) => rpcOf("categories", client.categories),
  link: async (db, eventId, termIds) => {
    await db.eventCategory.createMany({ data: termIds.map((categoryId) => ({ eventId, categoryId })) });
    await recountTermEvents(db);
  },
  rows: (db) => db.category.findMany({ orderBy: { id: "asc" } }),
  linkCount: (db, categoryId) => db.eventCategory.count({ where: { categoryId } }),
};

export const TAGS: TermKind = {
  key: "tags",
  noun: "tag",
  taxonomy: "post_tag",
  hierarchical: false,
  path: `${API}/tags`,
  rpc: (client) => rpcOf("tags", client.tags),
  link: async (db, eventId, termIds) => {
    await db.eventTag.createMany({ data: termIds.map((tagId) => ({ eventId, tagId })) });
    await recountTermEvents(db);
  },
  rows: (db) => db.tag.findMany({ orderBy: { id: "asc" } }),
  linkCount: (db, tagId) => db.eventTag.count({ where: { tagId } }),
};

export interface EventFixture {
  title: string;
  status?: string;
  language?: string;
}

let eventCounter = 0;

/** An event written straight into the database (only what terms need of it). */
export async function createEvent(db: Db, { title, status = "publish", language = "en" }: EventFixture) {
  eventCounter += 1;
  const event = await create.event(db, { title, slug: `event-${eventCounter}`, status, language });
  return event.id;
}

/** An event of `kind`'s terms, published unless told otherwise. */
export async function createEventWith(db: Db, kind: TermKind, termIds: number[], fixture: Partial<EventFixture> = {}) {
  const id = await createEvent(db, { title: `Event of ${termIds.join(",")}`, ...fixture });
  await kind.link(db, id, termIds);
  return id;
}

export interface ExpectedTerm {
  id: number;
  name: string;
  slug: string;
  description?: string;
  parent?: number;
  count?: number;
  language?: string;
  translations?: Partial<Record<string, number>>;
}

/**
 * The whole wire form of a term as served under `apiRoot` (`<origin>/cal/events/v1` or a language variant),
 * key order included; `mlLanguage` is the explicit language parameter its API links keep.
 */
export function expectedTerm(kind: TermKind, apiRoot: string, term: ExpectedTerm, mlLanguage?: string): TermLike {
  const language = term.language ?? "en";
  // The public page is in the term's own language, whichever prefix the request had.
  const site = `${apiRoot.replace(/(\/[a-z-]+)?\/cal\/events\/v1$/, "")}${language === "en" ? "" : `/${language}`}`;
  const query = mlLanguage ? `?ml_language=${mlLanguage}` : "";
  const collection = `${apiRoot}/${kind.key}`;
  const parent = term.parent ?? 0;
  return {
    id: term.id,
    count: term.count ?? 0,
    description: term.description ?? "",
    name: term.name,
    slug: term.slug,
    taxonomy: kind.taxonomy,
    ...(kind.hierarchical ? { parent } : {}),
    meta: [],
    url: `${site}/${kind.noun}/${term.slug}/`,
    urls: {
      self: `${collection}/${term.id}${query}`,
      collection: `${collection}${query}`,
      ...(parent ? { up: `${collection}/${parent}${query}` } : {}),
    },
    language,
    translations: term.translations ?? {},
  };
}

export type TermList = RouterOutputs["categories"]["list"] | RouterOutputs["tags"]["list"];

/** The terms of a list, whichever kind it lists. */
export function termsOf(list: TermList): TermLike[] {
  return "categories" in list ? list.categories : list.tags;
}

type ItemMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type UpdateMethod = "POST" | "PUT" | "PATCH";

/** The REST routes of one kind, for `server.call` and `server.fail`. */
function termRoutes(kind: TermKind) {
  return {
    list: `GET /${kind.key}` as const,
    create: `POST /${kind.key}` as const,
    item: (method: ItemMethod) => `${method} /${kind.key}/{id}` as const,
  };
}

type Request = RestRequest & { base?: string };

/** REST calls of one kind of term that must succeed (each with the status of its kind of call), and its routes. */
export function termApi(server: TestServer, kind: TermKind) {
  const route = termRoutes(kind);
  const apiRoot = () => `${server.origin}${API}`;
  const item = (method: ItemMethod, id: number, request: Request, status: number): Promise<RestResponse<TermLike>> =>
    server.call(route.item(method), { ...request, params: { id }, status });
  return {
    route,
    apiRoot,
    expected: (term: ExpectedTerm, root = apiRoot(), mlLanguage?: string) => expectedTerm(kind, root, term, mlLanguage),
    list: (query: RestRequest["query"] = {}, request: Request = {}) =>
      server.call(route.list, { ...request, query, status: 200 }),
    get: (id: number, request: Request = {}) => item("GET", id, request, 200),
    /** Creates a term, as the administrator unless told otherwise, and answers its body. */
    create: async (body: Record<string, unknown>, request: Request = {}): Promise<TermLike> => {
      const as = server.users.administrator;
      return (await server.call(route.create, { as, ...request, body, status: 201 })).body;
    },
    update: (id: number, body: Record<string, unknown>, request: Request = {}, method: UpdateMethod = "POST") =>
      item(method, id, { ...request, body }, 200),
    remove: (id: number, request: Request = {}) => item("DELETE", id, request, 200),
  };
}

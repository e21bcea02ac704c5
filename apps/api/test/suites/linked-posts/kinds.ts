import type { CalendarClient } from "@calendar/client";
import type { Db, RouterOutputs } from "@calendar/core";
import { create, type TestUser } from "@calendar/core/testing";
import { expect } from "vitest";
import type { RestRequest, TestServer } from "../../support/server.ts";

/** What a procedure of either kind answers. */
type Answer<P extends keyof RouterOutputs["venues"]> = RouterOutputs["venues"][P] | RouterOutputs["organizers"][P];

/**
 * The procedures venues and organizers share, each taking the input of either kind (the suites write a kind's
 * fields by name) and answering the output of either.
 */
export interface LinkedPostProcedures {
  list: { query(input: Record<string, unknown>): Promise<Answer<"list">> };
  get: { query(input: { id: number }): Promise<Answer<"get">> };
  getBySlug: { query(input: { slug: string }): Promise<Answer<"getBySlug">> };
  create: { mutate(input: Record<string, unknown>): Promise<Answer<"create">> };
  update: { mutate(input: { id: number } & Record<string, unknown>): Promise<Answer<"update">> };
  updateBySlug: { mutate(input: { slug: string } & Record<string, unknown>): Promise<Answer<"updateBySlug">> };
  delete: { mutate(input: { id: number; force?: boolean }): Promise<Answer<"delete">> };
  deleteBySlug: { mutate(input: { slug: string; force?: boolean }): Promise<Answer<"deleteBySlug">> };
}

/** Venues and organizers behave alike: the shared suites run once per kind, described here. */
export interface LinkedPostKind {
  singular: "venue" | "organizer";
  plural: "venues" | "organizers";
  /** Every optional text field of the kind, as written and as read back. */
  details: Record<string, string>;
  /** The fields a record always has besides the common ones (venues: the map flags). */
  always: Record<string, unknown>;
  /** The schema.org type of its `json_ld`. */
  jsonLdType: "Place" | "Organization";
  /** The tRPC procedures of the kind (the suites call both kinds alike). */
  trpc(client: CalendarClient): LinkedPostProcedures;
  /** Links a record to an event, as an event write would. */
  link(db: Db, eventId: number, id: number): Promise<void>;
  /** How many events link the record. */
  links(db: Db, id: number): Promise<number>;
  /** The stored row, or null. */
  row(db: Db, id: number): Promise<{ status: string; slug: string; language: string; password: string } | null>;
}

export const VENUE: LinkedPostKind = {
  singular: "venue",
  plural: "venues",
  details: {
    address: "221b Baker Street",
    city: "London",
    country: "United Kingdom",
    province: "Greater London",
    state: "England",
    zip: "NW1 6XE",
    phone: "+44 20 7224 3688",
    website: "https://example.org/baker-street",
    stateprovince: "England, Greater London",
  },
  always: { show_map: true, show_map_link: true },
  jsonLdType: "Place",
  trpc: (client) => client.venues,
  link: async (db, eventId, venueId) => {
    await db.eventVenue.create({ data: { eventId, venueId, position: 0 } });
  },
  links: (db, venueId) => db.eventVenue.count({ where: { venueId } }),
  row: (db, id) => db.venue.findUnique({ where: { id } }),
};

export const ORGANIZER: LinkedPostKind = {
  singular: "organizer",
  plural: "organizers",
  details: { phone: "+33 1 23 45 67 89", website: "https://example.org/troupe", email: "Contact@Example.org" },
  always: {},
  jsonLdType: "Organization",
  trpc: (client) => client.organizers,
  link: async (db, eventId, organizerId) => {
    await db.eventOrganizer.create({ data: { eventId, organizerId, position: 0 } });
  },
  links: (db, organizerId) => db.eventOrganizer.count({ where: { organizerId } }),
  row: (db, id) => db.organizer.findUnique({ where: { id } }),
};

export const API = "/cal/events/v1";

/** A wall time `YYYY-MM-DD HH:MM:SS` (UTC: the test site's time zone). */
export const WALL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** A venue or an organizer as the API answers it (the suites run on either). */
export type LinkedPost = Answer<"get">;
type LinkedPostList = Answer<"list">;

/** The records of a list, whichever kind it lists. */
export function recordsOf(list: LinkedPostList): LinkedPost[] {
  return "venues" in list ? list.venues : list.organizers;
}

/** The name of a record, whichever kind it is. */
export function nameOf(record: LinkedPost): string {
  return "venue" in record ? record.venue : record.organizer;
}

let eventCount = 0;

/** The four columns of an event of one hour from `start` (UTC: the test site's time zone). */
function hourFrom(start: Date) {
  const end = new Date(start.getTime() + 3_600_000);
  const wall = (date: Date) => date.toISOString().slice(0, 19).replace("T", " ");
  return { startLocal: wall(start), endLocal: wall(end), startUtc: start, endUtc: end };
}

/**
 * An event written straight to the database (the event service is not under test here), a week ahead unless told
 * otherwise: relative to now, as "upcoming" is.
 */
export async function insertEvent(
  db: Db,
  { status = "publish", start = new Date(Date.now() + 7 * 86_400_000) }: { status?: string; start?: Date } = {},
): Promise<number> {
  eventCount += 1;
  const event = await create.event(db, { title: `Event ${eventCount}`, status, ...hourFrom(start) });
  return event.id;
}

export const ITEM_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ItemMethod = (typeof ITEM_METHODS)[number];

/** The REST routes of one kind, for `server.call` and `server.fail`. */
function linkedPostRoutes(kind: LinkedPostKind) {
  return {
    list: `GET /${kind.plural}` as const,
    create: `POST /${kind.plural}` as const,
    item: (method: ItemMethod) => `${method} /${kind.plural}/{id}` as const,
    bySlug: (method: ItemMethod) => `${method} /${kind.plural}/by-slug/{slug}` as const,
  };
}

type ListRequest = Omit<RestRequest, "query"> & { base?: string };

/** REST calls on one kind's collection that must succeed, and its routes. */
export function linkedPostApi(server: TestServer, kind: LinkedPostKind) {
  const route = linkedPostRoutes(kind);
  const list = (query: RestRequest["query"] = {}, request: ListRequest = {}) =>
    server.call(route.list, { ...request, query, status: 200 });
  return {
    route,
    /** Creates a record (as an administrator unless told otherwise). */
    async create(body: Record<string, unknown>, as: TestUser = server.users.administrator) {
      return (await server.call(route.create, { as, body, status: 201 })).body;
    },
    list,
    /** The names a list returns, in order. */
    async names(query: RestRequest["query"] = {}, request: ListRequest = {}): Promise<string[]> {
      return recordsOf((await list(query, request)).body).map(nameOf);
    },
  };
}

export interface ExpectedRecord {
  id: number;
  name: string;
  slug: string;
  author?: number;
  status?: string;
  /** The publication date when the test fixed it (both as local and UTC time: the site is in UTC). */
  date?: string;
  /** Optional fields with a value, as read back. */
  fields?: Record<string, unknown>;
  language?: string;
  translations?: Record<string, number>;
  /** The API root of the request (language prefix included); the plain root by default. */
  root?: string;
}

/** The whole wire shape of a record (without `json_ld`), for `toEqual`. */
export function expectedRecord(server: TestServer, kind: LinkedPostKind, record: ExpectedRecord) {
  const host = server.origin.replace(/^https?:\/\//, "");
  const root = record.root ?? "";
  const date = record.date ?? expect.stringMatching(WALL_TIME);
  return {
    id: record.id,
    ...(record.author === undefined ? {} : { author: String(record.author) }),
    status: record.status ?? "publish",
    date,
    date_utc: date,
    modified: expect.stringMatching(WALL_TIME),
    modified_utc: expect.stringMatching(WALL_TIME),
    url: `${server.origin}${root}/${kind.singular}/${encodeURIComponent(record.slug)}/`,
    [kind.singular]: record.name,
    slug: record.slug,
    ...record.fields,
    ...kind.always,
    global_id: `${host}?id=${record.id}`,
    global_id_lineage: [`${host}?id=${record.id}`],
    language: record.language ?? "en",
    translations: record.translations ?? {},
  };
}

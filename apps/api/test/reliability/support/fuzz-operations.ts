import type { Role } from "@calendar/core";
import type { FieldKind } from "./fuzz-values.ts";

/** Every operation of the API with the kinds of its parameters: what the fuzzer generates requests for. */

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type Resource = "event" | "venue" | "organizer" | "category" | "tag" | "webhook";

/** The records the requests aim at, made before the run. */
export interface FuzzFixture {
  event: { id: number; slug: string };
  venue: { id: number; slug: string };
  organizer: { id: number; slug: string };
  category: { id: number; slug: string };
  tag: { id: number; slug: string };
  /** A subscription to a closed local port, made after the other records (so nothing is queued for it). */
  webhook: { id: number };
}

export interface Operation {
  /** The tRPC procedure (`events.create`), or `index`/`doc` for the REST-only discovery routes. */
  name: string;
  /** The REST methods that serve it (updates: POST, PUT and PATCH). */
  methods: readonly Method[];
  /** The path below the API root, with `{id}` or `{slug}`. */
  path: string;
  /** tRPC: a query or a mutation; absent for the discovery routes. */
  procedure?: "query" | "mutation";
  /** What `{id}` or `{slug}` names. */
  target?: Resource;
  write: boolean;
  /** Does the operation read the Authorization header? (The discovery routes do not.) */
  authenticates: boolean;
  /**
   * The only roles that may call it, reads included: any other caller must be refused. Absent: anyone may read,
   * and the roles that may write depend on the record (only anonymous callers, bad credentials and subscribers are
   * refused every write).
   */
  roles?: readonly Role[];
  fields: Record<string, FieldKind>;
  /** Parameters that make a valid request (besides the path). */
  base: Record<string, unknown>;
  /** The parameters of `base` that may not be left out. */
  required: readonly string[];
}

const EVENT_WRITE: Record<string, FieldKind> = {
  title: "requiredText",
  start_date: "date",
  end_date: "date",
  description: "nonBlankText",
  excerpt: "nonBlankText",
  slug: "slug",
  author: "userRef",
  date: "date",
  date_utc: "date",
  status: "status",
  timezone: "timezone",
  all_day: "bool",
  image: "image",
  cost: "cost",
  website: "url",
  show_map: "bool",
  show_map_link: "bool",
  hide_from_listings: "bool",
  sticky: "bool",
  featured: "bool",
  ticketed: "bool",
  categories: "termLinks",
  tags: "termLinks",
  venue: "venueLinks",
  organizer: "organizerLinks",
  password: "password",
  post_parent: "parentEvent",
  translation_of: "eventRef",
  ml_language: "language",
};

const EVENT_LIST: Record<string, FieldKind> = {
  page: "page",
  per_page: "perPage",
  start_date: "listDate",
  end_date: "listDate",
  starts_before: "listDate",
  starts_after: "listDate",
  ends_before: "listDate",
  ends_after: "listDate",
  strict_dates: "bool",
  search: "search",
  categories: "termFilter",
  tags: "termFilter",
  venue: "idFilter",
  organizer: "idFilter",
  featured: "bool",
  status: "statusFilter",
  geoloc: "bool",
  geoloc_lat: "latitude",
  geoloc_lng: "longitude",
  geoloc_radius: "radius",
  include: "idList",
  post_parent: "eventRef",
  ticketed: "bool",
  password: "password",
  ml_language: "language",
};

const LINKED_WRITE: Record<string, FieldKind> = {
  author: "userRef",
  date: "date",
  date_utc: "date",
  description: "clearableLongText",
  excerpt: "clearableLongText",
  status: "status",
  image: "image",
  slug: "slug",
  password: "password",
  website: "url",
  phone: "clearableText",
  ml_language: "language",
};

const VENUE_WRITE: Record<string, FieldKind> = {
  venue: "requiredText",
  ...LINKED_WRITE,
  translation_of: "venueRef",
  show_map: "bool",
  show_map_link: "bool",
  address: "clearableText",
  city: "clearableText",
  country: "clearableText",
  province: "clearableText",
  state: "clearableText",
  zip: "clearableText",
  stateprovince: "clearableText",
  geo_lat: "latitude",
  geo_lng: "longitude",
};

const ORGANIZER_WRITE: Record<string, FieldKind> = {
  organizer: "requiredText",
  ...LINKED_WRITE,
  translation_of: "organizerRef",
  email: "clearableText",
};

const LINKED_LIST: Record<string, FieldKind> = {
  page: "page",
  per_page: "perPage",
  search: "search",
  event: "eventRef",
  has_events: "bool",
  only_with_upcoming: "bool",
  status: "statusFilter",
  ml_language: "language",
};

const TERM_LIST: Record<string, FieldKind> = {
  page: "page",
  per_page: "perPage",
  search: "search",
  exclude: "idFilter",
  include: "idFilter",
  order: "order",
  orderby: "orderby",
  hide_empty: "bool",
  post: "eventRef",
  event: "eventRef",
  slug: "search",
  ml_language: "language",
};

const UPDATE: readonly Method[] = ["POST", "PUT", "PATCH"];

function without(fields: Record<string, FieldKind>, ...names: string[]): Record<string, FieldKind> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !names.includes(name)));
}

function readOp(name: string, path: string, fields: Record<string, FieldKind>, target?: Resource): Operation {
  return {
    name,
    methods: ["GET"],
    path,
    procedure: "query",
    ...(target ? { target } : {}),
    write: false,
    authenticates: true,
    fields,
    base: {},
    required: [],
  };
}

function writeOp(
  name: string,
  methods: readonly Method[],
  path: string,
  fields: Record<string, FieldKind>,
  base: Record<string, unknown>,
  target?: Resource,
): Operation {
  return {
    name,
    methods,
    path,
    procedure: "mutation",
    ...(target ? { target } : {}),
    write: true,
    authenticates: true,
    fields,
    base,
    // A create (the only write on a collection) needs all of its base; updates and deletes need nothing.
    required: path.includes("{") ? [] : Object.keys(base),
  };
}

const NEW_EVENT = { title: "Fuzz event", start_date: "2031-01-01 10:00:00", end_date: "2031-01-01 11:00:00" };

function linkedPostOperations(
  plural: "venues" | "organizers",
  singular: "venue" | "organizer",
  writeFields: Record<string, FieldKind>,
): Operation[] {
  const password = { password: "password" as const, ml_language: "language" as const };
  const remove = { force: "bool" as const, ml_language: "language" as const };
  // By slug, the path names the record: a `slug` in the body cannot rename it.
  const bySlugWrite = without(writeFields, "slug");
  return [
    readOp(`${plural}.list`, `/${plural}`, LINKED_LIST),
    writeOp(`${plural}.create`, ["POST"], `/${plural}`, writeFields, { [singular]: `Fuzz ${singular}` }),
    readOp(`${plural}.get`, `/${plural}/{id}`, password, singular),
    readOp(`${plural}.getBySlug`, `/${plural}/by-slug/{slug}`, password, singular),
    writeOp(`${plural}.update`, UPDATE, `/${plural}/{id}`, writeFields, { excerpt: "Fuzzed" }, singular),
    writeOp(
      `${plural}.updateBySlug`,
      UPDATE,
      `/${plural}/by-slug/{slug}`,
      bySlugWrite,
      { excerpt: "Fuzzed" },
      singular,
    ),
    writeOp(`${plural}.delete`, ["DELETE"], `/${plural}/{id}`, remove, {}, singular),
    writeOp(`${plural}.deleteBySlug`, ["DELETE"], `/${plural}/by-slug/{slug}`, remove, {}, singular),
  ];
}

function termOperations(plural: "categories" | "tags", singular: "category" | "tag"): Operation[] {
  const write: Record<string, FieldKind> = {
    name: "requiredText",
    description: "nonBlankText",
    slug: "slug",
    ...(singular === "category" ? { parent: "categoryRef" as const } : {}),
    translation_of: singular === "category" ? "categoryRef" : "tagRef",
    ml_language: "language",
  };
  const list = singular === "category" ? { ...TERM_LIST, parent: "categoryRef" as const } : TERM_LIST;
  return [
    readOp(`${plural}.list`, `/${plural}`, list),
    writeOp(`${plural}.create`, ["POST"], `/${plural}`, write, { name: `Fuzz ${singular}` }),
    readOp(`${plural}.get`, `/${plural}/{id}`, { ml_language: "language" }, singular),
    writeOp(`${plural}.update`, UPDATE, `/${plural}/{id}`, write, { description: "Fuzzed" }, singular),
    writeOp(`${plural}.delete`, ["DELETE"], `/${plural}/{id}`, { ml_language: "language" }, {}, singular),
  ];
}

const WEBHOOK_WRITE: Record<string, FieldKind> = {
  url: "webhookUrl",
  types: "changeTypes",
  actions: "changeActions",
  description: "webhookNote",
  ml_language: "language",
};

/** The webhook subscriptions: administrators only, reads included. */
function webhookOperations(): Operation[] {
  const item = { ml_language: "language" as const };
  const operations = [
    readOp("webhooks.list", "/webhooks", item),
    writeOp("webhooks.create", ["POST"], "/webhooks", WEBHOOK_WRITE, { url: "http://127.0.0.1:9/fuzz" }),
    readOp("webhooks.get", "/webhooks/{id}", item, "webhook"),
    writeOp(
      "webhooks.update",
      ["POST"],
      "/webhooks/{id}",
      { ...WEBHOOK_WRITE, active: "bool" },
      { description: "Fuzzed" },
      "webhook",
    ),
    writeOp("webhooks.delete", ["DELETE"], "/webhooks/{id}", item, {}, "webhook"),
    writeOp("webhooks.rotateSecret", ["POST"], "/webhooks/{id}/rotate-secret", item, {}, "webhook"),
    readOp(
      "webhooks.deliveries",
      "/webhooks/{id}/deliveries",
      { per_page: "attemptsPerPage", ml_language: "language" },
      "webhook",
    ),
  ];
  return operations.map((operation) => ({ ...operation, roles: ["administrator"] }));
}

export const OPERATIONS: readonly Operation[] = [
  {
    name: "index",
    methods: ["GET"],
    path: "",
    write: false,
    authenticates: false,
    fields: { namespace: "namespace", context: "context", ml_language: "language" },
    base: {},
    required: [],
  },
  {
    name: "doc",
    methods: ["GET"],
    path: "/doc",
    write: false,
    authenticates: false,
    fields: { ml_language: "language" },
    base: {},
    required: [],
  },
  readOp("events.list", "/events", EVENT_LIST),
  readOp("events.occurrences", "/events/{id}/occurrences", EVENT_LIST, "event"),
  writeOp("events.create", ["POST"], "/events", EVENT_WRITE, NEW_EVENT),
  readOp("events.get", "/events/{id}", { password: "password", ml_language: "language" }, "event"),
  readOp("events.getBySlug", "/events/by-slug/{slug}", { password: "password", ml_language: "language" }, "event"),
  writeOp("events.update", UPDATE, "/events/{id}", EVENT_WRITE, { excerpt: "Fuzzed" }, "event"),
  writeOp(
    "events.updateBySlug",
    UPDATE,
    "/events/by-slug/{slug}",
    without(EVENT_WRITE, "slug"),
    { excerpt: "Fuzzed" },
    "event",
  ),
  writeOp(
    "events.delete",
    ["DELETE"],
    "/events/{id}",
    { force: "bool", password: "password", ml_language: "language" },
    {},
    "event",
  ),
  writeOp(
    "events.deleteBySlug",
    ["DELETE"],
    "/events/by-slug/{slug}",
    { force: "bool", password: "password", ml_language: "language" },
    {},
    "event",
  ),
  ...linkedPostOperations("venues", "venue", VENUE_WRITE),
  ...linkedPostOperations("organizers", "organizer", ORGANIZER_WRITE),
  ...termOperations("categories", "category"),
  ...termOperations("tags", "tag"),
  readOp("changes.list", "/changes", { ml_language: "language" }),
  ...webhookOperations(),
];

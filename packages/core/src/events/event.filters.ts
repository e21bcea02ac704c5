import { z } from "zod";
import type { Actor } from "../auth/roles.ts";
import { type DetailsAccess, detailsAccess, type PostWhere } from "../auth/visibility.ts";
import { withDescendantCategories } from "../categories/category.descendants.ts";
import { invalidParam } from "../errors.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import { passwordQuery } from "../linked-posts/linked-post.schemas.ts";
import type { Scope } from "../scope.ts";
import { isAbsoluteDate } from "../shared/dates.ts";
import { type Language, mlLanguage } from "../shared/language.ts";
import { statusFilter } from "../shared/post-status.ts";
import { idList, nonEmptyString, page, pathId, perPage, positiveId, termRefList, wpBoolean } from "../shared/query.ts";
import { searchWords } from "../shared/search.ts";
import { findTermIdsForFilter } from "../terms/term.lookup.ts";
import { neverMovesWithClock } from "../trpc/operation.ts";
import { dateValue } from "./event.date-value.ts";
import { unknownLinkedIds } from "./event.errors.ts";
import { searchWordWhere } from "./event.search.ts";
import { type LinkedRead, linkedPostShownWhere } from "./event.visibility.ts";

/**
 * The parameters of `GET /events` (and of the feed `GET /events.ics`), one entry each, with everything every other
 * place needs to know of them (docs/behaviour.md, "Event lists"): the list query schema is built from this table,
 * the list service resolves and filters through it, the guard on hidden details follows what each entry declares
 * it reads, `rest_url` echoes from it, and the property test draws its queries from its samples. An entry that
 * leaves out a property does not compile.
 */

/** What a parameter reads that a password or a status may hide from the caller. */
export type HiddenRead =
  /** Nothing hidden (paging, dates, statuses, the parent, the ids). */
  | "nothing"
  /** The event's protected details (its flags and terms): it matches only events whose details the caller sees. */
  | "event-details"
  /** The event's protected text: its own `where` limits protected events to their title (`searchWordWhere`). */
  | "event-text"
  /**
   * The event's links (protected details of the event, as above) through the linked records the caller may see:
   * their link, or their details too (`linkedPostShownWhere`).
   */
  | { linked: "venues" | "organizers"; read: LinkedRead };

/**
 * How `rest_url`/`next_rest_url` echo a parameter: never, as the page of each link, or at its place in the
 * reference's order, as given or as the date window used it.
 */
export type Echo = "never" | "page" | { rank: number; as: "given" | "window" };

/** What a filter's `select` may use to keep to what the caller sees (from the entry's `reads`). */
export interface FilterGuard {
  /** Whose protected details the caller sees without a password (`detailsAccess`). */
  access: DetailsAccess;
  /** The linked records the entry may match through (undefined: every one, or it reads none). */
  linkedShown: PostWhere | undefined;
}

/**
 * A filter of its own, for a value given: resolves the value's references (unknown ones are 400s naming it) into
 * its `where`.
 */
export interface Selector<Value> {
  select(scope: Scope, value: Value, guard: FilterGuard): Prisma.EventWhereInput | Promise<Prisma.EventWhereInput>;
}

/** The records a property test may name in its samples. */
export interface SampleRecords {
  events: number[];
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
  /** A password some records have, to try beside a wrong one. */
  password: string;
}

export interface ListParam<Schema extends z.ZodType = z.ZodType> {
  schema: Schema;
  /**
   * How it selects events: not at all (paging, password, language), through the statuses a list shows, as one
   * bound of the date window (`listDateWindow`), as part of the search around a point, or as a filter of its own.
   */
  selects: "nothing" | "statuses" | "date-window" | "point" | Selector<NonNullable<z.output<Schema>>>;
  reads: HiddenRead;
  /**
   * Does this value select other events as time passes (`now`, `+1 week`)? Besides, the default bounds of the date
   * window move with the clock too (`eventListMovesWithClock`).
   */
  movesWithClock(value: NonNullable<z.output<Schema>>): boolean;
  echo: Echo;
  /** Values a property test tries, as a client would send them. */
  samples(records: SampleRecords): ReadonlyArray<z.input<Schema>>;
}

/** An entry, with its value's type inferred from its schema. */
function param<Schema extends z.ZodType>(entry: ListParam<Schema>): ListParam<Schema> {
  return entry;
}

export const DEFAULT_GEOLOC_RADIUS_KM = 25;

/** A number (or numeric string) within bounds, for the geo filters. */
function boundedNumber(min: number, max: number) {
  return z.preprocess(
    (value: number | string) =>
      typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value,
    z.number().min(min).max(max),
  );
}

/** A list filter sent empty (`categories=`) is invalid, as in the reference, rather than matching nothing. */
function nonEmptyList<T extends z.ZodType<unknown[]>>(list: T) {
  return list.refine((items) => items.length > 0, "Must not be empty.");
}

const DATE_SAMPLES = ["2030-01-01", "2031-03-01 18:00:00", "2031-06-30", "2032-01-01 01:00:00"];

const dateBound = dateValue.optional();

/** A bound of the date window (`listDateWindow`). */
interface DateBoundParam extends ListParam<typeof dateBound> {
  selects: "date-window";
}

/** A bound of the date window: read from now unless absolute (`now`, `tomorrow`, `+1 week`). */
function dateParam(description: string, rank: number): DateBoundParam {
  return {
    schema: dateBound.meta({ description }),
    selects: "date-window",
    reads: "nothing",
    movesWithClock: (value) => !isAbsoluteDate(value),
    echo: { rank, as: "window" },
    samples: () => DATE_SAMPLES,
  };
}

/** A flag of the event: one of its protected details. */
function flagParam(description: string, rank: number, where: (value: boolean) => Prisma.EventWhereInput) {
  return param({
    schema: wpBoolean.optional().meta({ description }),
    selects: { select: (_scope, value) => where(value) },
    reads: "event-details",
    movesWithClock: neverMovesWithClock,
    echo: { rank, as: "given" },
    samples: () => [true, false],
  });
}

/** Ids of linked records: each must be one the caller may see (else 400, as an unknown one). */
async function requireLinked(
  param: "venue" | "organizer",
  ids: readonly number[],
  find: (where: { AND: Array<{ id: { in: number[] } } | PostWhere> }) => Promise<Array<{ id: number }>>,
  shown: PostWhere | undefined,
): Promise<void> {
  const found = new Set((await find({ AND: [{ id: { in: [...ids] } }, ...(shown ? [shown] : [])] })).map((r) => r.id));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) throw unknownLinkedIds(param, unknown);
}

/** A part of the search around a point (`geoloc_lat` with `geoloc_lng`, `geoloc_radius`): its venues' places. */
function pointParam<Schema extends z.ZodType>(schema: Schema, rank: number, samples: ReadonlyArray<z.input<Schema>>) {
  return param({
    schema,
    selects: "point",
    reads: { linked: "venues", read: "details" },
    movesWithClock: neverMovesWithClock,
    echo: { rank, as: "given" },
    samples: () => samples,
  });
}

const VENUE_HAS_COORDINATES = { geoLat: { not: null }, geoLng: { not: null } } satisfies Prisma.VenueWhereInput;

export const EVENT_LIST_PARAMS = {
  page: param({
    schema: page,
    selects: "nothing",
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: "page",
    samples: () => [1, 2],
  }),
  per_page: param({
    schema: perPage,
    selects: "nothing",
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: { rank: 1, as: "given" },
    samples: () => [1, 4, 50],
  }),
  start_date: dateParam("Events starting on or after this (default: yesterday 00:00, site time zone).", 2),
  end_date: dateParam("Events ending on or before this (default: 24 months ahead, end of day).", 3),
  starts_before: dateParam("Events starting before this (drops the default window).", 17),
  starts_after: dateParam("Events starting after this (drops the default window).", 18),
  ends_before: dateParam("Events ending before this (drops the default window).", 19),
  ends_after: dateParam("Events ending after this (drops the default window).", 20),
  strict_dates: param({
    schema: wpBoolean
      .optional()
      .meta({ description: "true: use the given times as they are; otherwise whole days are included." }),
    selects: "date-window",
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: { rank: 21, as: "given" },
    samples: () => [true, false],
  }),
  search: param({
    schema: nonEmptyString
      .max(200)
      .optional()
      .meta({ description: "Words that must all appear in the title, excerpt or description." }),
    selects: {
      select: (_scope, search, guard) => ({
        AND: searchWords(search).map((word) => searchWordWhere(word, guard.access)),
      }),
    },
    reads: "event-text",
    movesWithClock: neverMovesWithClock,
    echo: { rank: 4, as: "given" },
    samples: () => ["grand night", "hidden", "protected", "secret", "hall"],
  }),
  categories: param({
    schema: nonEmptyList(termRefList)
      .optional()
      .meta({ description: "Category ids or slugs (any of them); each includes its subcategories, as in WordPress." }),
    selects: {
      select: async (scope, refs) => {
        const named = await findTermIdsForFilter(scope, "category", refs, "categories");
        const ids = await withDescendantCategories(scope, named, "categories");
        return { categories: { some: { categoryId: { in: ids } } } };
      },
    },
    reads: "event-details",
    movesWithClock: neverMovesWithClock,
    echo: { rank: 5, as: "given" },
    samples: (records) => [records.categories.slice(0, 2), records.categories.slice(-1), ["music"]],
  }),
  tags: param({
    schema: nonEmptyList(termRefList).optional().meta({ description: "Tag ids or slugs (any of them)." }),
    selects: {
      select: async (scope, refs) => {
        const ids = await findTermIdsForFilter(scope, "tag", refs, "tags");
        return { tags: { some: { tagId: { in: ids } } } };
      },
    },
    reads: "event-details",
    movesWithClock: neverMovesWithClock,
    echo: { rank: 6, as: "given" },
    samples: (records) => [records.tags, records.tags.slice(0, 1)],
  }),
  venue: param({
    schema: nonEmptyList(idList).optional().meta({ description: "Venue ids (any of them)." }),
    selects: {
      select: async (scope, ids, guard) => {
        await requireLinked(
          "venue",
          ids,
          (where) => scope.db.venue.findMany({ where, select: { id: true } }),
          guard.linkedShown,
        );
        return { venues: { some: { venueId: { in: ids } } } };
      },
    },
    reads: { linked: "venues", read: "link" },
    movesWithClock: neverMovesWithClock,
    echo: { rank: 7, as: "given" },
    samples: (records) => [...records.venues.map((id) => [id]), records.venues.slice(0, 2)],
  }),
  organizer: param({
    schema: nonEmptyList(idList).optional().meta({ description: "Organizer ids (any of them)." }),
    selects: {
      select: async (scope, ids, guard) => {
        await requireLinked(
          "organizer",
          ids,
          (where) => scope.db.organizer.findMany({ where, select: { id: true } }),
          guard.linkedShown,
        );
        return { organizers: { some: { organizerId: { in: ids } } } };
      },
    },
    reads: { linked: "organizers", read: "link" },
    movesWithClock: neverMovesWithClock,
    echo: { rank: 8, as: "given" },
    samples: (records) => [...records.organizers.map((id) => [id]), records.organizers],
  }),
  featured: flagParam("Only featured (true) or only other (false) events.", 9, (featured) => ({ featured })),
  status: param({
    schema: statusFilter.optional(),
    selects: "statuses",
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: { rank: 14, as: "given" },
    samples: () => [["publish"], ["draft", "private"], ["trash"]],
  }),
  geoloc: param({
    schema: wpBoolean
      .optional()
      .meta({ description: "true: only events whose venue has coordinates; false: only the others." }),
    selects: {
      select: (_scope, geoloc, guard) => {
        const placed = { venue: { AND: [VENUE_HAS_COORDINATES, ...(guard.linkedShown ? [guard.linkedShown] : [])] } };
        return { venues: geoloc ? { some: placed } : { none: placed } };
      },
    },
    reads: { linked: "venues", read: "details" },
    movesWithClock: neverMovesWithClock,
    echo: { rank: 10, as: "given" },
    samples: () => [true, false],
  }),
  geoloc_lat: pointParam(
    boundedNumber(-90, 90).optional().meta({ description: "Latitude of the centre (with geoloc_lng)." }),
    11,
    [52.52, 40.7],
  ),
  geoloc_lng: pointParam(
    boundedNumber(-180, 180).optional().meta({ description: "Longitude of the centre (with geoloc_lat)." }),
    12,
    [13.4, -74],
  ),
  geoloc_radius: pointParam(
    boundedNumber(0, 20_100)
      .optional()
      .meta({ description: `Radius around the centre in km (default ${DEFAULT_GEOLOC_RADIUS_KM}).` }),
    13,
    [1, 25, 20_000],
  ),
  include: param({
    schema: nonEmptyList(idList)
      .optional()
      .meta({ description: "Only these event ids; no date window; by post date." }),
    selects: { select: (_scope, ids) => ({ id: { in: ids } }) },
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: { rank: 16, as: "given" },
    samples: (records) => [records.events.slice(0, 3), [...records.events.slice(-2), 999_999]],
  }),
  post_parent: param({
    schema: positiveId.optional().meta({ description: "Only children of this event." }),
    selects: {
      select: async (scope, parentId) => {
        const parent = await scope.db.event.findUnique({ where: { id: parentId }, select: { id: true } });
        if (!parent) throw invalidParam("post_parent", `No event with the id ${parentId}.`);
        return { parentId };
      },
    },
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: { rank: 15, as: "given" },
    samples: (records) => records.events.slice(0, 1),
  }),
  ticketed: flagParam("Only events with (true) or without (false) tickets.", 22, (ticketed) => ({ ticketed })),
  password: param({
    schema: passwordQuery,
    selects: "nothing",
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: "never",
    samples: (records) => [records.password, "wrong"],
  }),
  ml_language: param({
    schema: mlLanguage,
    selects: "nothing",
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: "never",
    samples: () => ["en", "de"] satisfies Language[],
  }),
};

export type ListParamName = keyof typeof EVENT_LIST_PARAMS;

/** The parameters in the table's order. */
export const LIST_PARAM_NAMES = Object.keys(EVENT_LIST_PARAMS) as ListParamName[];

/** The guard a filter's `select` gets, from what its entry declares it reads. */
export function filterGuard(actor: Actor, reads: HiddenRead): FilterGuard {
  return {
    access: detailsAccess(actor),
    linkedShown: typeof reads === "object" ? linkedPostShownWhere(actor, reads.read) : undefined,
  };
}

/**
 * Does a filter that reads this match only the events whose protected details the caller sees? Every read of
 * hidden details does, but search, which keeps to the titles of the others itself.
 */
export function readsEventDetails(reads: HiddenRead): boolean {
  return reads !== "nothing" && reads !== "event-text";
}

type ListQueryShape = { [Name in ListParamName]: (typeof EVENT_LIST_PARAMS)[Name]["schema"] };

/** The schema of each parameter, in the table's order (the order of the API document). */
function listQueryShape(): ListQueryShape {
  const entries = Object.entries(EVENT_LIST_PARAMS).map(([name, entry]) => [name, entry.schema]);
  // The entries are the table's own, under their own names.
  return Object.fromEntries(entries) as ListQueryShape;
}

/** `geoloc_lat` and `geoloc_lng` come together. */
function requirePointTogether(
  query: { geoloc_lat?: number | undefined; geoloc_lng?: number | undefined },
  context: z.RefinementCtx,
) {
  const hasLat = query.geoloc_lat !== undefined;
  const hasLng = query.geoloc_lng !== undefined;
  if (hasLat === hasLng) return;
  const [given, missing] = hasLat ? ["geoloc_lat", "geoloc_lng"] : ["geoloc_lng", "geoloc_lat"];
  context.addIssue({ code: "custom", path: [missing], message: `Required together with ${given}.` });
}

export const eventListQuery = z.object(listQueryShape()).superRefine(requirePointTogether);

/** The list query of a path that names an event too (`GET /events/{id}/occurrences`). */
export const eventSubListQuery = z.object({ id: pathId, ...listQueryShape() }).superRefine(requirePointTogether);
export type EventListQuery = z.infer<typeof eventListQuery>;

/** The date filters of the list: the bounds of its date window. */
export type ListDateParam = {
  [Name in ListParamName]: (typeof EVENT_LIST_PARAMS)[Name] extends DateBoundParam ? Name : never;
}[ListParamName];

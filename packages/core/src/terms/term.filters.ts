import { z } from "zod";
import {
  asGiven,
  entriesOf,
  type ListParameter,
  listMovesWithClock,
  never,
  unless,
} from "../linked-posts/list-filter.ts";
import { mlLanguage } from "../shared/language.ts";
import { DEFAULT_PER_PAGE, idList, nonEmptyString, page, perPage, positiveId, wpBoolean } from "../shared/query.ts";
import { slugLookupKeys } from "../shared/slug.ts";
import { neverMovesWithClock } from "../trpc/operation.ts";
import type { TermListQuery } from "./term.schemas.ts";
import type { TermWhere } from "./term.store.ts";
import { HAS_PUBLISHED_EVENTS, termSearchWhere } from "./term.where.ts";

/**
 * The parameters of `GET /categories` and `GET /tags` (docs/behaviour.md, "Categories and tags"), one entry each
 * (tags leave out `parent`). Terms have no status or password of their own, so `reads` has three values:
 * - `nothing`: paging and order;
 * - `term columns`: what everybody sees of every term (its `eventCount` counts only published events);
 * - `one event's links`: the terms of the event it names; the service answers for that event what
 *   `GET /events/{id}` answers, and lists no terms of an event whose details a password hides (`eventLinksShown`).
 */

export const MAX_TERM_NAME = 200;

export type TermParameter<S extends z.ZodType> = ListParameter<S> &
  (
    | { reads: "nothing" }
    | { reads: "term columns"; where(value: z.output<S>, language: string): TermWhere | undefined }
    | {
        reads: "one event's links";
        eventId(value: z.output<S>, query: Readonly<Record<string, unknown>>): number | undefined;
      }
  );

/** An entry, its value typed by its own schema. */
function parameter<S extends z.ZodType>(entry: TermParameter<S>): TermParameter<S> {
  return entry;
}

const nonEmptyIdList = idList.refine((ids) => ids.length > 0, "Must not be empty.");

export const TERM_PARAMETERS = {
  page: parameter({
    schema: page,
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: (value) => (value > 1 ? value : undefined),
  }),
  per_page: parameter({
    schema: perPage,
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: unless(DEFAULT_PER_PAGE),
  }),
  search: parameter({
    schema: nonEmptyString
      .max(MAX_TERM_NAME)
      .optional()
      .meta({ description: "Part of the name or slug (case- and accent-insensitive)." }),
    reads: "term columns",
    where: (search) => (search ? termSearchWhere(search) : undefined),
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  exclude: parameter({
    schema: nonEmptyIdList.optional().meta({ description: "Leave out these ids (each must exist)." }),
    reads: "term columns",
    where: (ids) => (ids ? { id: { notIn: ids } } : undefined),
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  include: parameter({
    schema: nonEmptyIdList.optional().meta({ description: "Only these ids (each must exist)." }),
    reads: "term columns",
    where: (ids) => (ids ? { id: { in: ids } } : undefined),
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  order: parameter({
    schema: z.enum(["asc", "desc"]).optional().meta({ description: "Sort direction (default asc)." }),
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  orderby: parameter({
    schema: z
      .enum(["id", "name", "slug", "count", "include"])
      .optional()
      .meta({ description: "Sort key (default name, case-insensitive); include = the order of `include`." }),
    reads: "nothing",
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  hide_empty: parameter({
    schema: wpBoolean
      .default(true)
      .meta({ description: "Hide terms without a published event in the language (default true)." }),
    reads: "term columns",
    where: (hide) => (hide ? HAS_PUBLISHED_EVENTS : undefined),
    movesWithClock: neverMovesWithClock,
    echo: (hide) => (hide ? undefined : false),
  }),
  parent: parameter({
    schema: positiveId.optional().meta({ description: "Only the children of this category (it must exist)." }),
    reads: "term columns",
    where: (parentId) => (parentId === undefined ? undefined : { parentId }),
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  post: parameter({
    schema: positiveId.optional().meta({ description: "Only the terms of this event (it must exist)." }),
    reads: "one event's links",
    // `event` wins when both are given.
    eventId: (post, query) => (query.event === undefined ? post : undefined),
    movesWithClock: neverMovesWithClock,
    echo: (post, query) => (query.event === undefined ? post : undefined),
  }),
  event: parameter({
    schema: positiveId.optional().meta({ description: "Alias of `post`; wins when both are given." }),
    reads: "one event's links",
    eventId: (event) => event,
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  slug: parameter({
    schema: nonEmptyString.max(MAX_TERM_NAME).optional().meta({ description: "Only the term with this slug." }),
    reads: "term columns",
    where: (slug, language) => (slug ? { slug: { in: slugLookupKeys(slug, language) } } : undefined),
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  ml_language: parameter({
    schema: mlLanguage,
    reads: "term columns",
    where: (_, language) => ({ language }),
    movesWithClock: neverMovesWithClock,
    // The links carry the language in their base (`LinkBase.languageParam`).
    echo: never,
  }),
} satisfies Record<string, TermParameter<z.ZodType>>;

/** Does a category or tag list move with the clock? (None of its parameters does.) */
export const termListMovesWithClock = listMovesWithClock(TERM_PARAMETERS);

/** The events a list query names (`one event's links`), by the parameter that names each. */
export function termEventsNamedBy(query: TermListQuery): Array<{ param: string; id: number }> {
  return entriesOf(TERM_PARAMETERS).flatMap(([key, entry]) => {
    const parameter: TermParameter<z.ZodType> = entry;
    const id = parameter.reads === "one event's links" ? parameter.eventId(query[key], query) : undefined;
    return id === undefined ? [] : [{ param: key, id }];
  });
}

/** One parameter's condition on the terms. */
function conditionOf(
  parameter: TermParameter<z.ZodType>,
  value: unknown,
  query: TermListQuery,
  language: string,
): TermWhere | undefined {
  switch (parameter.reads) {
    case "nothing":
      return undefined;
    case "term columns":
      return parameter.where(value, language);
    case "one event's links": {
      const eventId = parameter.eventId(value, query);
      return eventId === undefined ? undefined : { events: { some: { eventId } } };
    }
  }
}

/** The terms a list query selects in the request's language: every parameter of `TERM_PARAMETERS`. */
export function buildTermWhere(query: TermListQuery, language: string): TermWhere {
  const conditions = entriesOf(TERM_PARAMETERS).flatMap(([key, parameter]) => {
    const condition = conditionOf(parameter, query[key], query, language);
    return condition === undefined ? [] : [condition];
  });
  return { AND: conditions };
}

import type { z } from "zod";
import type { Actor } from "../auth/roles.ts";
import { listStatusWhere } from "../auth/visibility.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import { type Language, mlLanguage } from "../shared/language.ts";
import { statusFilter } from "../shared/post-status.ts";
import { DEFAULT_PER_PAGE, nonEmptyString, page, perPage, positiveId, wpBoolean } from "../shared/query.ts";
import { neverMovesWithClock } from "../trpc/operation.ts";
import type { LinkedPostWhere } from "./linked-post.kind.ts";
import { fieldSearchWhere, nameSearchWhere, searchFragments } from "./linked-post.search.ts";
import { asGiven, type ListParameter, listMovesWithClock, listQueryOf, never, unless } from "./list-filter.ts";

/**
 * The parameters of `GET /venues` and `GET /organizers` (docs/behaviour.md, "Venues and organizers"), one entry
 * each. `reads` says what a parameter looks at, and so which guard `buildLinkedPostWhere` puts around it:
 * - `nothing`: paging;
 * - `shown columns`: what every caller sees of a record it may list (name, status, language);
 * - `protected details`: fields a password hides; records whose details the caller does not see are matched by
 *   `whereRedacted` only;
 * - `one event's links`: the records linked to the event it names; the service answers for that event what
 *   `GET /events/{id}` answers (`eventLinksShown`), and the links of an event whose details are hidden match nothing;
 * - `linked events`: a condition on the linked events, which sees only the events whose links the caller sees.
 */

export const MAX_SEARCH = 200;

/** What the filters need of the request. */
export interface LinkedPostFilterScope {
  actor: Actor;
  language: Language;
  now: Date;
  /** How many fields the kind searches. */
  searchFieldCount: number;
}

type EventWhere = Prisma.EventWhereInput;

export type LinkedPostParameter<S extends z.ZodType> = ListParameter<S> &
  (
    | { reads: "nothing" }
    | {
        reads: "shown columns";
        where(value: z.output<S>, scope: LinkedPostFilterScope): LinkedPostWhere | undefined;
      }
    | {
        reads: "protected details";
        where(value: z.output<S>, scope: LinkedPostFilterScope): LinkedPostWhere | undefined;
        /** What it may match of a record whose details are hidden from the caller. */
        whereRedacted(value: z.output<S>, scope: LinkedPostFilterScope): LinkedPostWhere;
      }
    | { reads: "one event's links"; eventId(value: z.output<S>): number | undefined }
    | {
        reads: "linked events";
        events(
          value: z.output<S>,
          scope: LinkedPostFilterScope,
        ): { some: EventWhere } | { none: EventWhere } | undefined;
      }
  );

/** An entry, its value typed by its own schema. */
function parameter<S extends z.ZodType>(entry: LinkedPostParameter<S>): LinkedPostParameter<S> {
  return entry;
}

/** Events in these statuses do not count for `has_events` (docs/behaviour.md, "Venues and organizers"). */
const NOT_COUNTED_EVENT_STATUSES = ["draft", "pending", "trash"];

export const LINKED_POST_PARAMETERS = {
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
      .max(MAX_SEARCH)
      .optional()
      .meta({ description: "Words that some single field must all contain (case- and accent-insensitive)." }),
    reads: "protected details",
    where: (search, scope) =>
      search === undefined ? undefined : fieldSearchWhere(searchFragments(search), scope.searchFieldCount),
    whereRedacted: (search) => nameSearchWhere(searchFragments(search ?? "")),
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  event: parameter({
    schema: positiveId.optional().meta({ description: "Only those linked to this event." }),
    reads: "one event's links",
    eventId: (id) => id,
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  has_events: parameter({
    schema: wpBoolean.optional().meta({
      description: "true: only those linked to an event of the language that is not a draft; false: the others.",
    }),
    reads: "linked events",
    events: (has, { language }) => {
      if (has === undefined) return undefined;
      const counted = { language, status: { notIn: NOT_COUNTED_EVENT_STATUSES } };
      return has ? { some: counted } : { none: counted };
    },
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  only_with_upcoming: parameter({
    schema: wpBoolean
      .optional()
      .meta({ description: "true: only those linked to an upcoming event of the language visible to the requester." }),
    reads: "linked events",
    events: (upcoming, { language, now }) => (upcoming ? { some: { language, startUtc: { gte: now } } } : undefined),
    movesWithClock: (upcoming) => upcoming === true,
    echo: asGiven,
  }),
  status: parameter({
    schema: statusFilter.optional(),
    reads: "shown columns",
    where: (status, { actor }) => listStatusWhere(actor, status),
    movesWithClock: neverMovesWithClock,
    echo: asGiven,
  }),
  ml_language: parameter({
    schema: mlLanguage,
    reads: "shown columns",
    where: (_, { language }) => ({ language }),
    movesWithClock: neverMovesWithClock,
    // The links carry the language in their base (`LinkBase.languageParam`).
    echo: never,
  }),
} satisfies Record<string, LinkedPostParameter<z.ZodType>>;

/** `GET /venues` and `GET /organizers`. */
export const linkedPostListQuery = listQueryOf(LINKED_POST_PARAMETERS);

/** Does a venue or organizer list move with the clock (`only_with_upcoming`)? */
export const linkedPostListMovesWithClock = listMovesWithClock(LINKED_POST_PARAMETERS);
export type LinkedPostListQuery = z.infer<typeof linkedPostListQuery>;

import type { Actor } from "../auth/roles.ts";
import { listStatusWhere } from "../auth/visibility.ts";
import type { Language } from "../shared/language.ts";
import type { LinkedPostWhere } from "./linked-post.kind.ts";
import type { LinkedPostListQuery } from "./linked-post.schemas.ts";
import { fieldSearchWhere, searchFragments } from "./linked-post.search.ts";

/** Events in these statuses do not count for `has_events` (docs/behaviour.md, "Venues and organizers"); trashed ones are gone. */
const NOT_COUNTED_EVENT_STATUSES = ["draft", "pending", "trash"];

export interface LinkedPostListContext {
  actor: Actor;
  language: Language;
  now: Date;
  /** How many fields the kind searches. */
  searchFieldCount: number;
}

export type LinkedPostFilters = Pick<
  LinkedPostListQuery,
  "search" | "event" | "has_events" | "only_with_upcoming" | "status"
>;

/** The `where` of a venue or organizer list: language, visibility and every filter of the query. */
export function buildLinkedPostWhere(query: LinkedPostFilters, context: LinkedPostListContext): LinkedPostWhere {
  const { actor, language, now } = context;
  const conditions: LinkedPostWhere[] = [listStatusWhere(actor, query.status)];
  if (query.search !== undefined) {
    conditions.push(fieldSearchWhere(searchFragments(query.search), context.searchFieldCount));
  }
  if (query.event !== undefined) conditions.push({ events: { some: { eventId: query.event } } });
  // Only the events of the list's language count, as every filter sees only that language.
  if (query.has_events !== undefined) {
    const counted = { event: { language, status: { notIn: NOT_COUNTED_EVENT_STATUSES } } };
    conditions.push(query.has_events ? { events: { some: counted } } : { events: { none: counted } });
  }
  if (query.only_with_upcoming) {
    // The events count as the requester would see them in the event list.
    const upcoming = { language, AND: [{ startUtc: { gte: now } }, listStatusWhere(actor, undefined)] };
    conditions.push({ events: { some: { event: upcoming } } });
  }
  return { language, AND: conditions };
}

/** Newest first: post date, then id (docs/behaviour.md, "Venues and organizers"). */
export const LINKED_POST_ORDER: Array<{ postDateUtc: "desc" } | { id: "desc" }> = [
  { postDateUtc: "desc" },
  { id: "desc" },
];

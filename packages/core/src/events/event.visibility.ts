import type { Actor } from "../auth/roles.ts";
import {
  canRead,
  detailsAccess,
  detailsShownWhere,
  type GuardedPost,
  isRedacted,
  type PostWhere,
  readableWhere,
} from "../auth/visibility.ts";

/**
 * What an event shows of the venues and organizers it links (docs/behaviour.md, "Event shape"), from the rules of
 * `auth/visibility.ts` applied to the LINKED record: its own status and password decide, not the event's. Every
 * event read (single, list, iCalendar, the public page's JSON-LD) and every list filter over linked records uses
 * this, as a predicate or as its `where` beside it.
 */

/** How an event shows a linked record: not at all (null), or with its protected details blanked or not. */
export function linkedPostView(actor: Actor, linked: GuardedPost): { redacted: boolean } | null {
  if (!canRead(actor, linked)) return null;
  return { redacted: isRedacted(actor, linked) };
}

/**
 * What a list filter reads of a linked record: only that the event links it (`link`: shown wherever the record is,
 * redacted or not), or its protected details too (`details`: its place, for a search around a point).
 */
export type LinkedRead = "link" | "details";

/**
 * `linkedPostView` as a `where` on the linked records: those a filter may match through. Undefined when the actor
 * sees every one.
 */
export function linkedPostShownWhere(actor: Actor, read: LinkedRead): PostWhere | undefined {
  const conditions = [
    readableWhere(actor),
    read === "details" ? detailsShownWhere(detailsAccess(actor)) : undefined,
  ].filter((condition) => condition !== undefined);
  return conditions.length ? { AND: conditions } : undefined;
}

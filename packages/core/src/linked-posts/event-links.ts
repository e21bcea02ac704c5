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
import { domainError } from "../errors.ts";

/**
 * The links of an event (its venues, organizers, categories and tags) as reading the event shows them
 * (docs/behaviour.md, "Links of an event"), built from `auth/visibility.ts`: a list that names an event the actor may
 * not read answers what `GET /events/{id}` answers, and the links of an event whose password hides its details from
 * the actor are not shown, as in the event list.
 */

/** The columns `eventLinksShown` reads. */
export const EVENT_LINKS_GUARD = { status: true, authorId: true, password: true } as const;

/** Does the actor see the links of this event? A 403 (the answer of `GET /events/{id}`) when it may not read it. */
export function eventLinksShown(actor: Actor, event: GuardedPost): boolean {
  if (event.status === "trash") throw domainError("event-no-longer-available");
  if (!canRead(actor, event)) throw domainError("event-not-accessible");
  return !isRedacted(actor, event);
}

/** `eventLinksShownWhere` as a predicate (without the 403s of `eventLinksShown`): are this event's links shown? */
export function areEventLinksShown(actor: Actor, event: GuardedPost): boolean {
  return event.status !== "trash" && canRead(actor, event) && !isRedacted(actor, event);
}

/** `eventLinksShown` as a `where` over events: those the actor reads, out of the trash, with their details shown. */
export function eventLinksShownWhere(actor: Actor): { AND: PostWhere[] } {
  const conditions: Array<PostWhere | undefined> = [
    { status: { not: "trash" } },
    readableWhere(actor),
    detailsShownWhere(detailsAccess(actor)),
  ];
  return { AND: conditions.filter((condition) => condition !== undefined) };
}

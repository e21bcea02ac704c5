import type { z } from "zod";
import { detailsAccess, detailsShownWhere, type PostWhere } from "../auth/visibility.ts";
import { eventLinksShownWhere } from "./event-links.ts";
import {
  LINKED_POST_PARAMETERS,
  type LinkedPostFilterScope,
  type LinkedPostListQuery,
  type LinkedPostParameter,
} from "./linked-post.filters.ts";
import type { LinkedPostWhere } from "./linked-post.kind.ts";
import { entriesOf } from "./list-filter.ts";

/** What the guards let the filters see: the records whose details are shown, the events whose links are shown. */
interface Guards {
  records: PostWhere | undefined;
  events: { AND: PostWhere[] };
}

/** One parameter's condition, inside the guard that what it reads calls for. */
function conditionOf(
  parameter: LinkedPostParameter<z.ZodType>,
  value: unknown,
  scope: LinkedPostFilterScope,
  guards: Guards,
): LinkedPostWhere | undefined {
  switch (parameter.reads) {
    case "nothing":
      return undefined;
    case "shown columns":
      return parameter.where(value, scope);
    case "protected details": {
      const where = parameter.where(value, scope);
      if (where === undefined || guards.records === undefined) return where;
      return { OR: [{ AND: [guards.records, where] }, parameter.whereRedacted(value, scope)] };
    }
    case "one event's links": {
      const eventId = parameter.eventId(value);
      return eventId === undefined ? undefined : { events: { some: { eventId, event: guards.events } } };
    }
    case "linked events": {
      const events = parameter.events(value, scope);
      if (events === undefined) return undefined;
      return "some" in events
        ? { events: { some: { event: { AND: [guards.events, events.some] } } } }
        : { events: { none: { event: { AND: [guards.events, events.none] } } } };
    }
  }
}

/** The `where` of a venue or organizer list: every parameter of `LINKED_POST_PARAMETERS`, each inside its guard. */
export function buildLinkedPostWhere(query: LinkedPostListQuery, scope: LinkedPostFilterScope): LinkedPostWhere {
  const guards = { records: detailsShownWhere(detailsAccess(scope.actor)), events: eventLinksShownWhere(scope.actor) };
  const conditions = entriesOf(LINKED_POST_PARAMETERS).flatMap(([key, parameter]) => {
    const condition = conditionOf(parameter, query[key], scope, guards);
    return condition === undefined ? [] : [condition];
  });
  return { AND: conditions };
}

/** The events a list query names (`one event's links`), by the parameter that names each. */
export function eventsNamedBy(query: LinkedPostListQuery): Array<{ param: string; id: number }> {
  return entriesOf(LINKED_POST_PARAMETERS).flatMap(([key, entry]) => {
    const parameter: LinkedPostParameter<z.ZodType> = entry;
    const id = parameter.reads === "one event's links" ? parameter.eventId(query[key]) : undefined;
    return id === undefined ? [] : [{ param: key, id }];
  });
}

/** Newest first: post date, then id (docs/behaviour.md, "Venues and organizers"). */
export const LINKED_POST_ORDER: Array<{ postDateUtc: "desc" } | { id: "desc" }> = [
  { postDateUtc: "desc" },
  { id: "desc" },
];

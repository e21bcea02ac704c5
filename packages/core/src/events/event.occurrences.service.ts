import { canRead } from "../auth/visibility.ts";
import { domainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { languageSchema } from "../shared/language.ts";
import type { EventListQuery } from "./event.filters.ts";
import { listEvents } from "./event.list.service.ts";
import type { EventListOutput } from "./event.output.schemas.ts";

/**
 * `GET /events/{id}/occurrences` (docs/behaviour.md, "Recurring series"): the occurrences of the series the event
 * belongs to, in the series' language, as `GET /events` lists them (paging, dates, filters, visibility). The event
 * itself is checked as a single GET checks it; a single event lists itself.
 */
export async function listOccurrences(scope: Scope, input: EventListQuery & { id: number }): Promise<EventListOutput> {
  const { id, ...query } = input;
  const event = await scope.db.event.findUnique({
    where: { id },
    select: { id: true, seriesId: true, status: true, authorId: true, language: true },
  });
  if (!event) throw domainError("rest-event-not-found", { id });
  if (event.status === "trash") throw domainError("event-no-longer-available");
  if (!canRead(scope.actor, event)) throw domainError("event-not-accessible");
  const where = event.seriesId === null ? { id } : { seriesId: event.seriesId };
  return listEvents({ ...scope, language: languageSchema.parse(event.language) }, query, {
    where,
    path: `/events/${id}/occurrences/`,
  });
}

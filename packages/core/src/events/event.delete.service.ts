import { requireCapability, requireEdit } from "../auth/capabilities.ts";
import { recordChanges } from "../changes/change.record.ts";
import { MANY_EVENTS_TIMEOUT_MS, runWrite } from "../db/write.ts";
import { domainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { deleteSeriesOccurrences, excludeOccurrence } from "../series/series.delete.ts";
import { stampsAt } from "../shared/dates.ts";
import { countedLinksOf, EVENT_TERM_LINKS, moveTermCounts } from "../terms/term.counts.ts";
import { eventIdOfSlug, eventRelations, loadEventById, loadEventRow } from "./event.load.ts";
import type { EventOutput } from "./event.output.schemas.ts";
import { presentEvent } from "./event.present.ts";
import type { EventDeleteBySlugInput, EventDeleteInput } from "./event.schemas.ts";

/**
 * `DELETE /events/{id}` (docs/behaviour.md, "Deleting"): to the trash (again: 410), or with `force` (administrators)
 * permanently, with its links; answers with the event as it is (trashed) or was (deleted). Either way it leaves its
 * translation group (the others keep theirs, and the language is free for a new translation). Each write is a
 * single statement guarded by its own condition, so a concurrent delete cannot slip between the check and the write.
 * An occurrence of a series is deleted alone (its original start becomes an EXDATE of the series), with the later
 * ones, or with all of them, as `recurrence_scope` says (docs/behaviour.md, "Editing and deleting occurrences").
 */
export async function deleteEvent(
  scope: Scope,
  input: Pick<EventDeleteInput, "id" | "force" | "recurrence_scope">,
): Promise<EventOutput> {
  const { actor, db, site } = scope;
  const { id } = input;
  const existing = await loadEventRow(db, { id });
  if (!existing) {
    requireCapability(actor, "create_posts");
    throw domainError("rest-event-not-found", { id: id });
  }
  requireEdit(actor, existing);
  const { seriesId } = existing;
  const recurrenceScope = input.recurrence_scope ?? "this";
  if (seriesId !== null && recurrenceScope !== "this") {
    const presented = presentEvent(existing, await eventRelations(scope, [existing], false), scope.links, {
      redacted: false,
    });
    const event = { ...existing, seriesId };
    const request = {
      event,
      recurrenceScope,
      force: input.force ?? false,
      actor,
      site,
      now: new Date(),
      chargeEvents: scope.chargeEvents,
    };
    await runWrite(db, (tx) => deleteSeriesOccurrences(tx, request), {
      serializable: true,
      queueKey: `event:${id}`,
      timeout: MANY_EVENTS_TIMEOUT_MS,
    });
    return input.force ? presented : loadEventById(scope, id);
  }
  const excluded = seriesId === null ? undefined : { ...existing, seriesId };
  if (input.force) {
    requireCapability(actor, "delete_permanently");
    const presented = presentEvent(existing, await eventRelations(scope, [existing], false), scope.links, {
      redacted: false,
    });
    await db.$transaction(async (tx) => {
      const { count } = await tx.event.deleteMany({ where: { id } });
      if (count === 0) throw domainError("rest-event-not-found", { id: id });
      await moveTermCounts(tx, countedLinksOf(existing), undefined);
      if (excluded) await excludeOccurrence(tx, excluded, site);
      await recordChanges(tx, [{ type: "event", action: "deleted", ...existing }]);
    });
    return presented;
  }
  const stamp = stampsAt(new Date(), site.timezone);
  const trash = { status: "trash", translationGroup: null, modified: stamp.local, modifiedUtc: stamp.utc };
  await db.$transaction(async (tx) => {
    // Published or not decides whether the terms lose the event: each guarded statement finds out atomically.
    const published = await tx.event.updateMany({ where: { id, status: "publish" }, data: trash });
    if (published.count === 0) {
      const other = await tx.event.updateMany({ where: { id, status: { notIn: ["publish", "trash"] } }, data: trash });
      if (other.count === 0) throw domainError("event-is-in-trash");
    } else {
      const links = await tx.event.findUniqueOrThrow({ where: { id }, include: EVENT_TERM_LINKS });
      await moveTermCounts(tx, countedLinksOf({ ...links, status: "publish" }), undefined);
    }
    if (excluded) await excludeOccurrence(tx, excluded, site);
    await recordChanges(tx, [{ type: "event", action: "trashed", ...existing, status: "trash" }]);
  });
  return loadEventById(scope, id);
}

export async function deleteEventBySlug(scope: Scope, input: EventDeleteBySlugInput): Promise<EventOutput> {
  const id = await eventIdOfSlug(scope, input.slug);
  return deleteEvent(scope, { id, force: input.force, recurrence_scope: input.recurrence_scope });
}

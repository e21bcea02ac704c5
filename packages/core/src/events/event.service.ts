import { canRead, requireCapability, requireEdit } from "../auth/capabilities.ts";
import { isRedacted } from "../auth/password-protection.ts";
import { recordChanges } from "../changes/change.record.ts";
import { domainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { stampsAt } from "../shared/dates.ts";
import { countedLinksOf, EVENT_TERM_LINKS, moveTermCounts } from "../terms/term.counts.ts";
import { type LoadedEvent, readEvent } from "./event.document.ts";
import { presentEvent, presentEventDetail } from "./event.present.ts";
import { eventIdOfSlug, eventRelations, loadEventById, loadEventRow, unknownSlug } from "./event.read.service.ts";
import type {
  EventDeleteBySlugInput,
  EventDeleteInput,
  EventDetailOutput,
  EventGetBySlugInput,
  EventGetInput,
  EventOutput,
  EventUpdateBySlugInput,
} from "./event.schemas.ts";
import { updateEvent } from "./event.write.service.ts";

/** A single GET, with the reference's checks in order: missing, trashed, not visible, password. */
async function presentReadable(
  scope: Scope,
  { row, relations }: LoadedEvent,
  password: string | undefined,
): Promise<EventDetailOutput> {
  if (row.status === "trash") throw domainError("event-no-longer-available");
  if (!canRead(scope.actor, row)) throw domainError("event-not-accessible");
  if (isRedacted(scope.actor, row, password)) throw domainError("event-password-protected");
  return presentEventDetail(row, await relations({ jsonLd: true }), scope.links);
}

/** `GET /events/{id}`: an event of any language. */
export async function getEvent(
  scope: Scope,
  input: Pick<EventGetInput, "id" | "password">,
): Promise<EventDetailOutput> {
  const loaded = await readEvent(scope, { id: input.id });
  if (!loaded) throw domainError("rest-event-not-found", { id: input.id });
  return presentReadable(scope, loaded, input.password);
}

/** `GET /events/by-slug/{slug}`: the event with that slug in the request's language; unknown → 400. */
export async function getEventBySlug(
  scope: Scope,
  input: Pick<EventGetBySlugInput, "slug" | "password">,
): Promise<EventDetailOutput> {
  const loaded = await readEvent(scope, { language: scope.language, slug: input.slug });
  if (!loaded) throw unknownSlug(input.slug);
  return presentReadable(scope, loaded, input.password);
}

/** By slug, the path's slug names the event (in the request's language); the body cannot rename it. */
export async function updateEventBySlug(scope: Scope, input: EventUpdateBySlugInput): Promise<EventOutput> {
  const { slug, ...fields } = input;
  return updateEvent(scope, { ...fields, id: await eventIdOfSlug(scope, slug) });
}

/**
 * `DELETE /events/{id}` (reference 3.5, decision 10): to the trash (again: 410), or with `force` (administrators)
 * permanently, with its links; answers with the event as it is (trashed) or was (deleted). Either way it leaves its
 * translation group (the others keep theirs, and the language is free for a new translation). Each write is a
 * single statement guarded by its own condition, so a concurrent delete cannot slip between the check and the write.
 */
export async function deleteEvent(scope: Scope, input: Pick<EventDeleteInput, "id" | "force">): Promise<EventOutput> {
  const { actor, db, site } = scope;
  const { id } = input;
  const existing = await loadEventRow(db, { id });
  if (!existing) {
    requireCapability(actor, "create_posts");
    throw domainError("rest-event-not-found", { id: id });
  }
  requireEdit(actor, existing);
  if (input.force) {
    requireCapability(actor, "delete_permanently");
    const presented = presentEvent(existing, await eventRelations(scope, [existing], false), scope.links, {
      redacted: false,
    });
    await db.$transaction(async (tx) => {
      const { count } = await tx.event.deleteMany({ where: { id } });
      if (count === 0) throw domainError("rest-event-not-found", { id: id });
      await moveTermCounts(tx, countedLinksOf(existing), undefined);
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
    await recordChanges(tx, [{ type: "event", action: "trashed", ...existing, status: "trash" }]);
  });
  return loadEventById(scope, id);
}

export async function deleteEventBySlug(scope: Scope, input: EventDeleteBySlugInput): Promise<EventOutput> {
  return deleteEvent(scope, { id: await eventIdOfSlug(scope, input.slug), force: input.force });
}

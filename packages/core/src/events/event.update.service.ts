import { requireCapability, requireEdit, scaleBackStatus } from "../auth/capabilities.ts";
import { recordChanges } from "../changes/change.record.ts";
import { runWrite } from "../db/write.ts";
import { domainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { stampsAt } from "../shared/dates.ts";
import { languageSchema } from "../shared/language.ts";
import { countedLinksOf, EVENT_TERM_LINKS, moveTermCounts } from "../terms/term.counts.ts";
import { scheduleOf } from "./event.dates.ts";
import { eventIdOfSlug, loadEventById } from "./event.load.ts";
import {
  checkReferences,
  EVENT_CHANGE_FIELDS,
  freeEventSlug,
  joinGroup,
  replacing,
  requireAuthorChoice,
  writeLinks,
} from "./event.plan.ts";
import type { EventOutput, EventUpdateBySlugInput, EventUpdateInput } from "./event.schemas.ts";
import { eventSearchText } from "./event.search.ts";
import { changesSchedule, postDateOf, scalarChanges } from "./event.write.ts";

/**
 * `POST|PUT|PATCH /events/{id}` (docs/behaviour.md, "Updating"): only the fields sent change; links sent empty are
 * removed. A missing event is a 404 for those who may edit events at all (401/403 for the others).
 */
export async function updateEvent(scope: Scope, input: EventUpdateInput): Promise<EventOutput> {
  const { id, ml_language: _language, ...fields } = input;
  const { actor, site } = scope;
  const now = new Date();
  await runWrite(
    scope.db,
    async (tx) => {
      const existing = await tx.event.findUnique({ where: { id }, include: EVENT_TERM_LINKS });
      // Links are made in the event's own language, whatever the language of the request.
      const eventScope = { ...scope, language: existing ? languageSchema.parse(existing.language) : scope.language };
      const checked = await checkReferences(tx, actor, fields, { language: eventScope.language, selfId: id });
      const schedule =
        existing && changesSchedule(fields) ? scheduleOf(fields, existing, site.timezone, now) : undefined;
      if (!existing) {
        requireCapability(actor, "create_posts");
        throw domainError("rest-event-not-found", { id: id });
      }
      requireEdit(actor, existing);
      requireAuthorChoice(actor, fields.author, existing.authorId);
      const links = await writeLinks(tx, eventScope, fields, checked);
      const stamp = stampsAt(now, site.timezone);
      await joinGroup(tx, checked.translation);
      const status = fields.status && scaleBackStatus(actor, fields.status);
      const before = countedLinksOf(existing);
      await moveTermCounts(tx, before, {
        language: before.language,
        status: status ?? before.status,
        categoryIds: links.categories?.create.map((link) => link.categoryId) ?? before.categoryIds,
        tagIds: links.tags?.create.map((link) => link.tagId) ?? before.tagIds,
      });
      const updated = await tx.event.update({
        where: { id },
        select: EVENT_CHANGE_FIELDS,
        data: {
          ...scalarChanges(fields),
          ...schedule,
          ...postDateOf(fields, schedule?.timezone ?? existing.timezone, site.timezone, now),
          imageId: links.imageId,
          parentId: links.parentId,
          venues: replacing(links.venues),
          organizers: replacing(links.organizers),
          categories: replacing(links.categories),
          tags: replacing(links.tags),
          slug: fields.slug && (await freeEventSlug(tx, existing.language, fields.slug, id)),
          status,
          authorId: fields.author,
          translationGroup: checked.translation?.group,
          modified: stamp.local,
          modifiedUtc: stamp.utc,
          // iCalendar's SEQUENCE: every update may change what a subscriber sees.
          sequence: { increment: 1 },
          searchText: eventSearchText({
            title: fields.title ?? existing.title,
            excerpt: fields.excerpt ?? existing.excerpt,
            description: fields.description ?? existing.description,
          }),
        },
      });
      await recordChanges(tx, [{ type: "event", action: "updated", ...updated }]);
    },
    { serializable: true, queueKey: `event:${id}` },
  );
  return loadEventById(scope, id);
}

/** By slug, the path's slug names the event (in the request's language); the body cannot rename it. */
export async function updateEventBySlug(scope: Scope, input: EventUpdateBySlugInput): Promise<EventOutput> {
  const { slug, ...fields } = input;
  return updateEvent(scope, { ...fields, id: await eventIdOfSlug(scope, slug) });
}

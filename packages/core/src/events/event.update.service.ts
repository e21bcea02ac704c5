import { requireCapability, requireEdit, scaleBackStatus } from "../auth/capabilities.ts";
import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import { MANY_EVENTS_TIMEOUT_MS, runWrite } from "../db/write.ts";
import { domainError, invalidParam } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { updateSeries } from "../series/series.edit.ts";
import { TEMPLATE_READ } from "../series/series.occurrences.ts";
import { overridesOf } from "../series/series.regenerate.ts";
import { stampsAt } from "../shared/dates.ts";
import { definedOnly } from "../shared/fields.ts";
import { languageSchema } from "../shared/language.ts";
import { countedLinksOf, moveTermCounts } from "../terms/term.counts.ts";
import { scheduleOf } from "./event.dates.ts";
import { eventIdOfSlug, loadEventById } from "./event.load.ts";
import type { EventOutput } from "./event.output.schemas.ts";
import { checkReferences, EVENT_CHANGE_FIELDS, replacing, requireAuthorChoice, writeLinks } from "./event.plan.ts";
import type { EventUpdateBySlugInput, EventUpdateInput, EventWriteFields } from "./event.schemas.ts";
import { eventSearchText } from "./event.search.ts";
import { freeEventSlug } from "./event.slugs.ts";
import { joinGroup } from "./event.translations.ts";
import { changesSchedule, postDateOf, scalarChanges } from "./event.write.ts";

/**
 * `POST|PUT|PATCH /events/{id}` (docs/behaviour.md, "Updating"): only the fields sent change; links sent empty are
 * removed. A missing event is a 404 for those who may edit events at all (401/403 for the others). An occurrence of
 * a series is edited alone (and overrides the fields sent), with the later ones, or with all of them, as
 * `recurrence_scope` says (docs/behaviour.md, "Editing and deleting occurrences").
 */
export async function updateEvent(scope: Scope, input: EventUpdateInput): Promise<EventOutput> {
  const { id, ml_language: _language, recurrence_scope: recurrenceScope = "this", ...fields } = input;
  const { actor, site } = scope;
  const now = new Date();
  await runWrite(
    scope.db,
    async (tx) => {
      const existing = await findEventWithLinks(tx, id);
      // Links are made in the event's own language, whatever the language of the request.
      const eventScope = { ...scope, language: existing ? languageSchema.parse(existing.language) : scope.language };
      const checked = await checkReferences(tx, actor, fields, { language: eventScope.language, selfId: id });
      const schedule =
        existing && changesSchedule(fields) ? scheduleOf(fields, existing, site.timezone, now) : undefined;
      if (!existing) {
        requireCapability(actor, "create_posts");
        throw domainError("rest-event-not-found", { id: id });
      }
      const { seriesId } = existing;
      if (seriesId !== null && recurrenceScope !== "this") {
        await updateSeries(tx, eventScope, { event: existing, seriesId, fields, recurrenceScope, checked, now });
        return;
      }
      if (fields.recurrence !== undefined) {
        throw invalidParam(
          "recurrence_scope",
          "recurrence changes a series' rule: send it to an occurrence with recurrence_scope=all or following.",
        );
      }
      requireEdit(actor, existing);
      requireAuthorChoice(actor, fields.author, existing.authorId);
      const links = await writeLinks(tx, eventScope, fields, checked);
      await joinGroup(tx, checked.translation);
      const status = fields.status && scaleBackStatus(actor, fields.status);
      await moveCountsOfUpdate(tx, existing, { status, password: fields.password }, links);
      const updated = await tx.event.update({
        where: { id },
        select: EVENT_CHANGE_FIELDS,
        data: {
          ...(await changedColumns(tx, { fields, existing, links, status, schedule, site, now })),
          translationGroup: checked.translation?.group,
        },
      });
      await recordChanges(tx, [{ type: "event", action: "updated", ...updated }]);
    },
    {
      serializable: true,
      queueKey: `event:${id}`,
      ...(recurrenceScope !== "this" && { timeout: MANY_EVENTS_TIMEOUT_MS }),
    },
  );
  return loadEventById(scope, id);
}

type WrittenLinks = Awaited<ReturnType<typeof writeLinks>>;
type ExistingEvent = NonNullable<Awaited<ReturnType<typeof findEventWithLinks>>>;

function findEventWithLinks(tx: Tx, id: number) {
  return tx.event.findUnique({ where: { id }, ...TEMPLATE_READ });
}

/**
 * The term counts follow the event's status, its password and its categories and tags, whichever of them the update
 * changes.
 */
async function moveCountsOfUpdate(
  tx: Tx,
  existing: ExistingEvent,
  changed: { status: string | undefined; password: string | undefined },
  links: WrittenLinks,
) {
  const before = countedLinksOf(existing);
  await moveTermCounts(tx, before, {
    language: before.language,
    status: changed.status ?? before.status,
    password: changed.password ?? before.password,
    categoryIds: links.categories?.create.map((link) => link.categoryId) ?? before.categoryIds,
    tagIds: links.tags?.create.map((link) => link.tagId) ?? before.tagIds,
  });
}

interface UpdatePlan {
  fields: EventWriteFields;
  existing: ExistingEvent;
  links: WrittenLinks;
  status: string | undefined;
  schedule: ReturnType<typeof scheduleOf> | undefined;
  site: Scope["site"];
  now: Date;
}

/** The columns an update writes: only what was sent, plus the stamps, the sequence and the search text. */
async function changedColumns(tx: Tx, { fields, existing, links, status, schedule, site, now }: UpdatePlan) {
  const stamp = stampsAt(now, site.timezone);
  return {
    ...scalarChanges(fields),
    ...schedule,
    ...postDateOf(fields, schedule?.timezone ?? existing.timezone, site.timezone, now),
    imageId: links.imageId,
    parentId: links.parentId,
    venues: replacing(links.venues),
    organizers: replacing(links.organizers),
    categories: replacing(links.categories),
    tags: replacing(links.tags),
    slug: fields.slug && (await freeEventSlug(tx, existing.language, fields.slug, existing.id)),
    overrides: existing.seriesId === null ? undefined : withOverrides(existing, fields),
    status,
    authorId: fields.author,
    modified: stamp.local,
    modifiedUtc: stamp.utc,
    // iCalendar's SEQUENCE: every update may change what a subscriber sees.
    sequence: { increment: 1 },
    searchText: eventSearchText({
      title: fields.title ?? existing.title,
      excerpt: fields.excerpt ?? existing.excerpt,
      description: fields.description ?? existing.description,
    }),
  };
}

/** An occurrence edited alone overrides the fields sent: an edit of the whole series leaves them alone. */
function withOverrides(existing: ExistingEvent, fields: EventWriteFields): string {
  return JSON.stringify([...new Set([...overridesOf(existing), ...Object.keys(definedOnly(fields))])]);
}

/** By slug, the path's slug names the event (in the request's language); the body cannot rename it. */
export async function updateEventBySlug(scope: Scope, input: EventUpdateBySlugInput): Promise<EventOutput> {
  const { slug, ...fields } = input;
  return updateEvent(scope, { ...fields, id: await eventIdOfSlug(scope, slug) });
}

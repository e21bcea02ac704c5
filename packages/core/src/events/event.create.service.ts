import { requireCapability } from "../auth/capabilities.ts";
import { recordChanges } from "../changes/change.record.ts";
import { MANY_EVENTS_TIMEOUT_MS, runWrite } from "../db/write.ts";
import type { Scope } from "../scope.ts";
import { planSeries, seriesLimitsOf, startSeries } from "../series/series.create.ts";
import { recurrenceLinesOf } from "../series/series.pro.ts";
import { slugify } from "../shared/slug.ts";
import { yieldToRequests } from "../shared/time-slices.ts";
import { moveTermCounts } from "../terms/term.counts.ts";
import { scheduleOf } from "./event.dates.ts";
import { loadEventById } from "./event.load.ts";
import type { EventOutput } from "./event.output.schemas.ts";
import {
  checkReferences,
  EVENT_CHANGE_FIELDS,
  newEventColumns,
  requireAuthorChoice,
  writeLinks,
} from "./event.plan.ts";
import type { EventCreateBody } from "./event.schemas.ts";
import { freeEventSlug } from "./event.slugs.ts";
import { joinGroup } from "./event.translations.ts";
import { namesLinkedRecords } from "./event.write.ts";

/**
 * `POST /events` (docs/behaviour.md, "Creating events"): one transaction; a failure anywhere leaves nothing behind.
 * With `recurrence`, the event is the first occurrence of a new series whose other occurrences are created with it.
 */
export async function createEvent(scope: Scope, body: EventCreateBody): Promise<EventOutput> {
  const { actor, site } = scope;
  const now = new Date();
  const schedule = scheduleOf(body, undefined, site.timezone, now);
  const series =
    body.recurrence && planSeries(recurrenceLinesOf(body.recurrence, schedule), schedule, seriesLimitsOf(site), now);
  if (series) {
    scope.chargeEvents?.({ written: series.starts.length - 1, created: series.starts.length - 1 });
    // The expansion held the loop: the requests waiting for it go first.
    await yieldToRequests();
  }
  const id = await runWrite(
    scope.db,
    async (tx) => {
      const checked = await checkReferences(tx, actor, body, { language: scope.language });
      requireCapability(actor, "create_posts");
      requireAuthorChoice(actor, body.author, undefined);
      const links = await writeLinks(tx, scope, body, checked);
      await joinGroup(tx, checked.translation);
      const columns = newEventColumns(scope, body, schedule, now);
      const created = await tx.event.create({
        data: {
          ...columns,
          ...links,
          slug: await freeEventSlug(tx, scope.language, body.slug ?? body.title),
          translationGroup: checked.translation?.group,
        },
        select: EVENT_CHANGE_FIELDS,
      });
      await moveTermCounts(tx, undefined, {
        language: columns.language,
        status: columns.status,
        password: columns.password ?? "",
        categoryIds: links.categories?.create.map((link) => link.categoryId) ?? [],
        tagIds: links.tags?.create.map((link) => link.tagId) ?? [],
      });
      await recordChanges(tx, [{ type: "event", action: "created", ...created }]);
      if (series) await startSeries(tx, created.id, series);
      return created.id;
    },
    {
      serializable: namesLinkedRecords(body),
      queueKey: `event-slug:${scope.language}:${slugify(body.slug ?? body.title, scope.language)}`,
      ...(series && { timeout: MANY_EVENTS_TIMEOUT_MS }),
    },
  );
  return loadEventById(scope, id);
}

import { requireEdit, scaleBackStatus } from "../auth/capabilities.ts";
import { recordChanges } from "../changes/change.record.ts";
import type { Tx } from "../db/db.ts";
import { invalidParam } from "../errors.ts";
import { scheduleOf } from "../events/event.dates.ts";
import { type CheckedReferences, requireAuthorChoice, writeLinks } from "../events/event.plan.ts";
import type { EventWriteFields } from "../events/event.schemas.ts";
import { eventSearchText } from "../events/event.search.ts";
import { changesSchedule, postDateOf, scalarChanges } from "../events/event.write.ts";
import type { EventSeries } from "../generated/sqlite/client.ts";
import type { Scope } from "../scope.ts";
import { inBatches, insertRows } from "../shared/bulk-insert.ts";
import { stampsAt } from "../shared/dates.ts";
import { definedOnly } from "../shared/fields.ts";
import { yieldToRequests } from "../shared/time-slices.ts";
import { countedLinksOf, moveTermCountsOfMany } from "../terms/term.counts.ts";
import { planSeries, seriesLimitsOf } from "./series.create.ts";
import { wallTimeInstant, wallTimePlus, wallTimeSeconds } from "./series.expand.ts";
import { TEMPLATE_READ, type TemplateEvent } from "./series.occurrences.ts";
import { recurrenceLinesOf } from "./series.pro.ts";
import { keepsOwnSchedule, overridesOf, regenerateSeries, SCHEDULE_FIELDS } from "./series.regenerate.ts";
import { frameOf, recurrenceLines } from "./series.rule.ts";
import { shiftedRule, splitSeries, storedRule } from "./series.split.ts";

/**
 * An update of many occurrences of a series (docs/behaviour.md, "Editing and deleting occurrences"): `all` edits
 * every occurrence, `following` splits the series at the occurrence addressed and edits the new one.
 */

/** Fields that name one occurrence: an edit of many cannot send them. */
const ONE_OCCURRENCE_FIELDS = ["slug", "post_parent", "translation_of"] as const;

export interface SeriesUpdate {
  /** The occurrence addressed, as `TEMPLATE_READ` reads it. */
  event: TemplateEvent;
  seriesId: number;
  fields: EventWriteFields;
  recurrenceScope: "following" | "all";
  checked: CheckedReferences;
  now: Date;
}

type WrittenLinks = Awaited<ReturnType<typeof writeLinks>>;

/**
 * Writes one edit to the occurrences it addresses, in the caller's transaction: every one is checked as a single
 * edit would be before anything is written (one refusal refuses all). `following` at the series' first start is `all`.
 */
export async function updateSeries(tx: Tx, scope: Scope, update: SeriesUpdate): Promise<void> {
  const { event, fields, now } = update;
  for (const name of ONE_OCCURRENCE_FIELDS) {
    if (fields[name] !== undefined) {
      throw invalidParam(name, `${name} names one occurrence: send it with recurrence_scope=this.`);
    }
  }
  const limits = seriesLimitsOf(scope.site);
  const series = await tx.eventSeries.findUniqueOrThrow({ where: { id: update.seriesId } });
  const cut = event.originalStartLocal;
  const splitsAt = update.recurrenceScope === "following" && cut !== null && cut > series.startLocal ? cut : null;
  const addressed = await tx.event.findMany({
    where: {
      seriesId: series.id,
      status: { not: "trash" },
      ...(splitsAt !== null && { originalStartLocal: { gte: splitsAt } }),
    },
    select: { id: true },
  });
  // With their links, a series' occurrences are up to a hundred thousand rows: read a batch at a time.
  const occurrences: TemplateEvent[] = [];
  await inBatches(addressed, async (batch) => {
    const read = await tx.event.findMany({ where: { id: { in: batch.map((row) => row.id) } }, ...TEMPLATE_READ });
    for (const occurrence of read) {
      requireEdit(scope.actor, occurrence);
      requireAuthorChoice(scope.actor, fields.author, occurrence.authorId);
    }
    occurrences.push(...read);
  });
  scope.chargeEvents?.({ written: occurrences.length - 1, created: 0 });
  const edited =
    splitsAt === null ? series : await splitSeries(tx, series, { id: event.id, originalStartLocal: splitsAt }, limits);
  const links = await writeLinks(tx, scope, fields, update.checked);
  const status = fields.status && scaleBackStatus(scope.actor, fields.status);
  await writeFields(tx, scope, { occurrences, fields, links, status, zone: edited.timezone, now });
  await moveSeries(tx, scope, edited, event, fields, now);
}

interface FieldsWrite {
  occurrences: readonly TemplateEvent[];
  fields: EventWriteFields;
  links: WrittenLinks;
  status: string | undefined;
  /** The series' zone, in which `date` is read. */
  zone: string;
  now: Date;
}

function sameValue(current: unknown, next: unknown): boolean {
  return current instanceof Date && next instanceof Date ? current.getTime() === next.getTime() : current === next;
}

function sameList(current: readonly number[], next: readonly number[] | undefined, ordered: boolean): boolean {
  if (next === undefined) return true;
  const sort = (ids: readonly number[]) => (ordered ? [...ids] : [...ids].sort((a, b) => a - b));
  return JSON.stringify(sort(current)) === JSON.stringify(sort(next));
}

/**
 * The fields sent, written to every occurrence they change in a few statements per batch (`inBatches`): the
 * columns and the links; then the term counts and one change each (one version for all). The names sent leave the
 * occurrences' overrides (but the schedule's: a moved occurrence stays where it was).
 */
async function writeFields(tx: Tx, scope: Scope, write: FieldsWrite): Promise<void> {
  const { fields, links, status, now } = write;
  const columns = definedOnly({
    ...scalarChanges(fields),
    status,
    authorId: fields.author,
    imageId: links.imageId,
    ...postDateOf(fields, write.zone, scope.site.timezone, now),
  });
  const named = Object.keys(definedOnly(fields)).filter((name) => !SCHEDULE_FIELDS.includes(name));
  const next: LinkIds = {
    venues: links.venues?.create.map((link) => link.venueId),
    organizers: links.organizers?.create.map((link) => link.organizerId),
    categories: links.categories?.create.map((link) => link.categoryId),
    tags: links.tags?.create.map((link) => link.tagId),
  };
  const stamp = stampsAt(now, scope.site.timezone);
  const written: TemplateEvent[] = [];
  await inBatches(write.occurrences, async (batch) => {
    const changed = batch.flatMap((occurrence) => {
      const overrides = overridesOf(occurrence);
      const kept = overrides.filter((name) => !named.includes(name));
      const changes = changesOccurrence(occurrence, columns, next) || kept.length !== overrides.length;
      if (!changes) return [];
      const searchText = eventSearchText({
        title: fields.title ?? occurrence.title,
        excerpt: fields.excerpt ?? occurrence.excerpt,
        description: fields.description ?? occurrence.description,
      });
      return [{ occurrence, overrides: JSON.stringify(kept), searchText }];
    });
    if (changed.length === 0) return;
    const ids = changed.map((entry) => entry.occurrence.id);
    await tx.event.updateMany({
      where: { id: { in: ids } },
      data: { ...columns, modified: stamp.local, modifiedUtc: stamp.utc, sequence: { increment: 1 } },
    });
    for (const column of ["searchText", "overrides"] as const) {
      for (const value of new Set(changed.map((entry) => entry[column]))) {
        const group = changed.filter((entry) => entry[column] === value).map((entry) => entry.occurrence.id);
        await tx.event.updateMany({ where: { id: { in: group } }, data: { [column]: value } });
      }
    }
    await replaceLinks(tx, ids, links);
    written.push(...changed.map((entry) => entry.occurrence));
  });
  if (written.length === 0) return;
  const after = (occurrence: TemplateEvent) => ({
    language: occurrence.language,
    status: status ?? occurrence.status,
    password: fields.password ?? occurrence.password,
    authorId: fields.author ?? occurrence.authorId,
    categoryIds: next.categories ?? occurrence.categories.map((link) => link.categoryId),
    tagIds: next.tags ?? occurrence.tags.map((link) => link.tagId),
  });
  await moveTermCountsOfMany(
    tx,
    written.map((occurrence) => ({ before: countedLinksOf(occurrence), after: after(occurrence) })),
  );
  await recordChanges(
    tx,
    written.map((occurrence) => ({ type: "event", action: "updated", id: occurrence.id, ...after(occurrence) })),
  );
}

interface LinkIds {
  venues: number[] | undefined;
  organizers: number[] | undefined;
  categories: number[] | undefined;
  tags: number[] | undefined;
}

/** Does the edit change this occurrence's columns or links? */
function changesOccurrence(occurrence: TemplateEvent, columns: Record<string, unknown>, next: LinkIds): boolean {
  const current: Record<string, unknown> = occurrence;
  return (
    Object.entries(columns).some(([column, value]) => !sameValue(current[column], value)) ||
    !sameList(
      occurrence.venues.map((link) => link.venueId),
      next.venues,
      true,
    ) ||
    !sameList(
      occurrence.organizers.map((link) => link.organizerId),
      next.organizers,
      true,
    ) ||
    !sameList(
      occurrence.categories.map((link) => link.categoryId),
      next.categories,
      false,
    ) ||
    !sameList(
      occurrence.tags.map((link) => link.tagId),
      next.tags,
      false,
    )
  );
}

/** The links sent replace those of every occurrence changed. */
async function replaceLinks(tx: Tx, ids: readonly number[], links: WrittenLinks): Promise<void> {
  const eventId = { in: [...ids] };
  if (links.venues) {
    await tx.eventVenue.deleteMany({ where: { eventId } });
    await insertRows(
      tx,
      "EventVenue",
      ids.flatMap((id) => (links.venues?.create ?? []).map((link) => ({ eventId: id, ...link }))),
    );
  }
  if (links.organizers) {
    await tx.eventOrganizer.deleteMany({ where: { eventId } });
    await insertRows(
      tx,
      "EventOrganizer",
      ids.flatMap((id) => (links.organizers?.create ?? []).map((link) => ({ eventId: id, ...link }))),
    );
  }
  if (links.categories) {
    await tx.eventCategory.deleteMany({ where: { eventId } });
    await insertRows(
      tx,
      "EventCategory",
      ids.flatMap((id) => (links.categories?.create ?? []).map((link) => ({ eventId: id, ...link }))),
    );
  }
  if (links.tags) {
    await tx.eventTag.deleteMany({ where: { eventId } });
    await insertRows(
      tx,
      "EventTag",
      ids.flatMap((id) => (links.tags?.create ?? []).map((link) => ({ eventId: id, ...link }))),
    );
  }
}

/**
 * The schedule or the rule sent: the series' first start moves by the wall-clock time the addressed occurrence's
 * start moves (its new length is every occurrence's), the rule (the one sent, else the stored one moved along) is
 * expanded anew and the occurrences regenerated. The addressed occurrence, if it was moved on its own, takes the
 * schedule sent.
 */
async function moveSeries(
  tx: Tx,
  scope: Scope,
  series: EventSeries,
  event: TemplateEvent,
  fields: EventWriteFields,
  now: Date,
): Promise<void> {
  const reschedules = changesSchedule(fields);
  if (!reschedules && fields.recurrence === undefined) return;
  // The expansion below runs in one piece: the loop is given back first, so that it adds to no batch.
  await yieldToRequests();
  const { site } = scope;
  const limits = seriesLimitsOf(site);
  const schedule = reschedules ? scheduleOf(fields, event, site.timezone, now) : undefined;
  const shiftSeconds = schedule ? wallTimeSeconds(event.startLocal, schedule.startLocal) : 0;
  const durationSeconds = schedule ? wallTimeSeconds(schedule.startLocal, schedule.endLocal) : series.durationSeconds;
  const timezone = schedule?.timezone ?? series.timezone;
  const frame = {
    timezone,
    allDay: schedule?.allDay ?? series.allDay,
    startLocal: wallTimePlus(series.startLocal, shiftSeconds),
  };
  const lines =
    fields.recurrence === undefined
      ? recurrenceLines(shiftedRule(storedRule(series, limits), frameOf(series), shiftSeconds, timezone), frame)
      : recurrenceLinesOf(fields.recurrence, frame);
  const endLocal = wallTimePlus(frame.startLocal, durationSeconds);
  const plan = planSeries(
    lines,
    {
      ...frame,
      endLocal,
      startUtc: wallTimeInstant(frame.startLocal, timezone),
      endUtc: wallTimeInstant(endLocal, timezone),
    },
    limits,
    now,
    { startsWithEvent: false },
  );
  // The expansion held the loop: the requests waiting for it go first.
  await yieldToRequests();
  await regenerateSeries(tx, series.id, plan, {
    shiftSeconds,
    siteZone: site.timezone,
    now,
    provider: scope.provider,
    chargeEvents: scope.chargeEvents,
  });
  if (schedule && keepsOwnSchedule(event)) {
    const stamp = stampsAt(now, site.timezone);
    const moved = await tx.event.update({
      where: { id: event.id },
      data: { ...schedule, modified: stamp.local, modifiedUtc: stamp.utc, sequence: { increment: 1 } },
      select: { id: true, language: true, status: true, password: true, authorId: true },
    });
    await recordChanges(tx, [{ type: "event", action: "updated", ...moved }]);
  }
}

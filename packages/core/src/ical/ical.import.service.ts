import { requireCapability } from "../auth/capabilities.ts";
import type { Tx } from "../db/db.ts";
import { runWrite } from "../db/write.ts";
import { DomainError, parseOrThrow } from "../errors.ts";
import { type EventSchedule, scheduleOf } from "../events/event.dates.ts";
import { newEventColumns } from "../events/event.plan.ts";
import { type EventCreateBody, eventCreateBody } from "../events/event.schemas.ts";
import { eventSearchText } from "../events/event.search.ts";
import { scalarChanges } from "../events/event.write.ts";
import type { OrganizerCreateBody } from "../organizers/organizer.schemas.ts";
import { createOrganizerInTx } from "../organizers/organizer.service.ts";
import type { Scope } from "../scope.ts";
import { stampsAt } from "../shared/dates.ts";
import { slugify, uniqueSlug } from "../shared/slug.ts";
import { countedLinksOf, EVENT_TERM_LINKS, moveTermCounts } from "../terms/term.counts.ts";
import { resolveTermIdsForWrite } from "../terms/term.lookup.ts";
import type { VenueCreateBody } from "../venues/venue.schemas.ts";
import { createVenueInTx } from "../venues/venue.service.ts";
import type { ImportResult } from "./ical.import.schemas.ts";
import { type ImportedSeries, type ImportSkip, parseCalendarFile } from "./ical.parse.ts";

export interface IcalImportOptions {
  dryRun: boolean;
  /** How far recurring series are expanded, in months from the later of their start and today. */
  horizonMonths: number;
  /** The most occurrences of one series. */
  seriesCap: number;
}

/** A large file takes more than a request's transaction time. */
const IMPORT_WRITE = { timeout: 300_000 };

class DryRun extends Error {
  constructor(readonly result: ImportResult) {
    super("dry run");
  }
}

interface Stored {
  id: number;
  icalRecurrenceId: string | null;
  icalSequence: number | null;
  icalModifiedUtc: Date | null;
  sequence: number;
  status: string;
  language: string;
  categories: Array<{ categoryId: number }>;
  tags: Array<{ tagId: number }>;
}

/** Is the file's version of a series newer than the one stored (higher SEQUENCE, else later LAST-MODIFIED)? */
function isNewer(series: ImportedSeries, stored: Stored): boolean {
  const sequence = stored.icalSequence ?? 0;
  if (series.sequence !== sequence) return series.sequence > sequence;
  const modified = stored.icalModifiedUtc?.getTime() ?? 0;
  return (series.lastModified?.getTime() ?? 0) > modified;
}

async function freeSlug(tx: Tx, language: string, title: string): Promise<string> {
  return uniqueSlug(slugify(title), async (slug) => (await tx.event.findFirst({ where: { language, slug } })) !== null);
}

/** The links of a body: venue and organizer found or created by name (duplicate avoidance), categories by name. */
async function linksOf(tx: Tx, scope: Scope, body: EventCreateBody) {
  const [venue] = (body.venue ?? []) as VenueCreateBody[];
  const [organizer] = (body.organizer ?? []) as OrganizerCreateBody[];
  const venueId = venue ? await createVenueInTx(tx, scope, venue) : undefined;
  const organizerId = organizer ? await createOrganizerInTx(tx, scope, organizer) : undefined;
  const categoryIds = body.categories ? await resolveTermIdsForWrite(tx, scope, "category", body.categories) : [];
  return {
    venues: { create: venueId === undefined ? [] : [{ venueId, position: 0 }] },
    organizers: { create: organizerId === undefined ? [] : [{ organizerId, position: 0 }] },
    categories: { create: categoryIds.map((categoryId) => ({ categoryId })) },
    categoryIds,
  };
}

function sourceColumns(series: ImportedSeries, recurrenceId: string) {
  return {
    icalUid: series.uid,
    icalRecurrenceId: recurrenceId,
    icalSequence: series.sequence,
    icalModifiedUtc: series.lastModified,
  };
}

async function trash(tx: Tx, scope: Scope, stored: Stored): Promise<void> {
  const stamp = stampsAt(new Date(), scope.site.timezone);
  await tx.event.update({
    where: { id: stored.id },
    data: {
      status: "trash",
      translationGroup: null,
      modified: stamp.local,
      modifiedUtc: stamp.utc,
      sequence: { increment: 1 },
    },
  });
  await moveTermCounts(tx, countedLinksOf(stored), undefined);
}

/** Writes one series: creates, updates and trashes its occurrences to match the file. */
async function writeSeries(
  tx: Tx,
  scope: Scope,
  series: ImportedSeries,
  bodies: EventCreateBody[],
  schedules: EventSchedule[],
  result: ImportResult,
): Promise<void> {
  const stored: Stored[] = await tx.event.findMany({
    where: { language: scope.language, icalUid: series.uid },
    select: {
      id: true,
      icalRecurrenceId: true,
      icalSequence: true,
      icalModifiedUtc: true,
      sequence: true,
      status: true,
      language: true,
      ...EVENT_TERM_LINKS,
    },
    orderBy: { id: "asc" },
  });
  const live = stored.filter((row) => row.status !== "trash");
  const byRecurrence = new Map(live.map((row) => [row.icalRecurrenceId ?? "", row]));
  if (series.cancelled) {
    for (const row of live) {
      await trash(tx, scope, row);
      result.updated.push(row.id);
    }
    return;
  }
  const now = new Date();
  const kept = new Set<number>();
  let parentId: number | null = null;
  for (const [index, occurrence] of series.occurrences.entries()) {
    const body = bodies[index] as EventCreateBody;
    const existing = byRecurrence.get(occurrence.recurrenceId);
    const schedule = schedules[index] as EventSchedule;
    let id: number;
    if (existing && !isNewer(series, existing)) {
      id = existing.id;
      result.unchanged += 1;
    } else if (existing) {
      const links = await linksOf(tx, scope, body);
      const stamp = stampsAt(now, scope.site.timezone);
      await tx.event.update({
        where: { id: existing.id },
        data: {
          ...scalarChanges(body),
          ...schedule,
          title: body.title,
          description: body.description ?? "",
          website: body.website ?? "",
          venues: { deleteMany: {}, ...links.venues },
          organizers: { deleteMany: {}, ...links.organizers },
          categories: { deleteMany: {}, ...links.categories },
          modified: stamp.local,
          modifiedUtc: stamp.utc,
          searchText: eventSearchText({ title: body.title, excerpt: "", description: body.description ?? "" }),
          ...sourceColumns(series, occurrence.recurrenceId),
          // The file's SEQUENCE, unless updates here have already counted past it: subscribers must see it grow.
          sequence: Math.max(series.sequence, existing.sequence + 1),
        },
      });
      const before = countedLinksOf(existing);
      await moveTermCounts(tx, before, { ...before, categoryIds: links.categoryIds });
      id = existing.id;
      result.updated.push(id);
    } else {
      const links = await linksOf(tx, scope, body);
      const columns = newEventColumns(scope, body, schedule, now);
      const created = await tx.event.create({
        data: {
          ...columns,
          venues: links.venues,
          organizers: links.organizers,
          categories: links.categories,
          slug: await freeSlug(tx, scope.language, body.title),
          parentId,
          ...sourceColumns(series, occurrence.recurrenceId),
          sequence: series.sequence,
        },
        select: { id: true },
      });
      await moveTermCounts(tx, undefined, {
        language: columns.language,
        status: columns.status,
        categoryIds: links.categoryIds,
        tagIds: [],
      });
      id = created.id;
      result.created.push(id);
    }
    kept.add(id);
    if (series.recurring) {
      if (parentId === null) parentId = id;
      else await tx.event.update({ where: { id }, data: { parentId } });
    }
  }
  for (const row of live) {
    if (kept.has(row.id)) continue;
    await trash(tx, scope, row);
    result.updated.push(row.id);
  }
}

/**
 * `POST /import`: the events of an iCalendar file, created, updated (a newer SEQUENCE or LAST-MODIFIED) or trashed
 * (`STATUS:CANCELLED`, or occurrences a changed series no longer has) to match it, by their UID and RECURRENCE-ID.
 * Every event is validated as `POST /events` validates it; one transaction for the whole file; a dry run rolls
 * it back and answers what it would have done (with the ids the new events would have had).
 */
export async function importCalendar(scope: Scope, text: string, options: IcalImportOptions): Promise<ImportResult> {
  requireCapability(scope.actor, "edit_others_posts");
  const parsed = parseCalendarFile(text, {
    siteZone: scope.site.timezone,
    horizonMonths: options.horizonMonths,
    seriesCap: options.seriesCap,
    now: new Date(),
  });
  const skipped: ImportSkip[] = [...parsed.skipped];
  const now = new Date();
  const valid = parsed.series.flatMap((series) => {
    try {
      const bodies = series.occurrences.map((occurrence) =>
        parseOrThrow(eventCreateBody, { ...occurrence.body, status: "publish" }),
      );
      const schedules = bodies.map((body) => scheduleOf(body, undefined, scope.site.timezone, now));
      return [{ series, bodies, schedules }];
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const params = error.extra.params ? ` (${Object.keys(error.extra.params as object).join(", ")})` : "";
      skipped.push({ uid: series.uid, reason: `${error.message}${params}` });
      return [];
    }
  });
  const work = async (tx: Tx) => {
    const result: ImportResult = {
      created: [],
      updated: [],
      unchanged: 0,
      skipped,
      series: valid.filter(({ series }) => series.recurring).length,
    };
    for (const { series, bodies, schedules } of valid) {
      await writeSeries(tx, scope, series, bodies, schedules, result);
    }
    if (options.dryRun) throw new DryRun(result);
    return result;
  };
  try {
    return await runWrite(scope.db, work, IMPORT_WRITE);
  } catch (error) {
    if (error instanceof DryRun) return error.result;
    throw error;
  }
}

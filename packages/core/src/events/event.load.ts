import { listStatusWhere, type PostWhere } from "../auth/visibility.ts";
import type { Db } from "../db/db.ts";
import { domainError, invalidParam } from "../errors.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import { loadOrganizersById } from "../organizers/organizer.service.ts";
import type { Scope } from "../scope.ts";
import { findBySlug } from "../shared/slug.ts";
import { translationsOf } from "../shared/translations.ts";
import { loadTermsById } from "../terms/term.lookup.ts";
import { loadVenuesById } from "../venues/venue.service.ts";
import type { EventOutput } from "./event.output.schemas.ts";
import { type EventRelations, presentEvent } from "./event.present.ts";
import { EVENT_COLUMNS, type EventRow, withEventLinks } from "./event.rows.ts";
import { linkedPostShownWhere } from "./event.visibility.ts";
import { uniqueIds } from "./event.write.ts";

/** Loading events and everything they show, for every event operation. */

/**
 * The presented venues, organizers, terms and translations of a page of events: a fixed number of queries. Venues
 * and organizers only where the actor may read them (`linkedPostView`, here as its `where`).
 * `translations` name only the members the actor could read, as the venues' and organizers' do.
 */
export async function eventRelations(
  scope: Scope,
  rows: readonly EventRow[],
  jsonLd: boolean,
): Promise<EventRelations> {
  const { db } = scope;
  const idsOf = (pick: (row: EventRow) => number[]) => uniqueIds(rows.flatMap(pick));
  const shown = linkedPostShownWhere(scope.actor, "link");
  type ShownWhere = { AND: [{ id: { in: number[] } }, PostWhere] };
  const readable = async (find: (where: ShownWhere) => Promise<Array<{ id: number }>>, ids: number[]) =>
    shown && ids.length ? (await find({ AND: [{ id: { in: ids } }, shown] })).map((row) => row.id) : ids;
  const [venueIds, organizerIds] = await Promise.all([
    readable(
      (where) => db.venue.findMany({ where, select: { id: true } }),
      idsOf((row) => row.venues.map((link) => link.venueId)),
    ),
    readable(
      (where) => db.organizer.findMany({ where, select: { id: true } }),
      idsOf((row) => row.organizers.map((link) => link.organizerId)),
    ),
  ]);
  const seriesIds = uniqueIds(rows.flatMap((row) => (row.seriesId === null ? [] : [row.seriesId])));
  const [venues, organizers, categories, tags, translations, series] = await Promise.all([
    loadVenuesById(db, scope, venueIds, { jsonLd }),
    loadOrganizersById(db, scope, organizerIds, { jsonLd }),
    loadTermsById(
      db,
      scope,
      "category",
      idsOf((row) => row.categories.map((link) => link.categoryId)),
    ),
    loadTermsById(
      db,
      scope,
      "tag",
      idsOf((row) => row.tags.map((link) => link.tagId)),
    ),
    translationsOf(rows, (groups) =>
      db.event.findMany({
        where: { AND: [{ translationGroup: { in: groups } }, listStatusWhere(scope.actor, undefined)] },
        select: { id: true, language: true, translationGroup: true },
      }),
    ),
    seriesIds.length
      ? db.eventSeries.findMany({ where: { id: { in: seriesIds } }, select: { id: true, recurrence: true } })
      : [],
  ]);
  return {
    venues,
    organizers,
    categories,
    tags,
    translations,
    series: new Map(series.map((row) => [row.id, JSON.parse(row.recurrence) as string[]])),
  };
}

export async function loadEventRow(db: Db, where: Prisma.EventWhereUniqueInput): Promise<EventRow | null> {
  const row = await db.event.findUnique({ where, ...EVENT_COLUMNS });
  if (!row) return null;
  const [loaded] = await withEventLinks(db, [row]);
  return loaded ?? null;
}

/** An event as written or deleted: never redacted (the writer may edit it). */
export async function loadEventById(scope: Scope, id: number): Promise<EventOutput> {
  const row = await loadEventRow(scope.db, { id });
  if (!row) throw domainError("rest-event-not-found", { id: id });
  return presentEvent(row, await eventRelations(scope, [row], false), scope.links, { redacted: false });
}

export function unknownSlug(slug: string) {
  return invalidParam("slug", `No event has the slug "${slug}" in this language.`);
}

/** The id of the event with this slug in the request's language; unknown → 400 naming `slug`. */
export async function eventIdOfSlug(scope: Scope, slug: string): Promise<number> {
  const row = await findBySlug(slug, scope.language, (key) =>
    scope.db.event.findUnique({
      where: { language_slug: { language: scope.language, slug: key } },
      select: { id: true },
    }),
  );
  if (!row) throw unknownSlug(slug);
  return row.id;
}

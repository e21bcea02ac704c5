import type { Db, Tx } from "../db/db.ts";
import { Prisma } from "../generated/sqlite/client.ts";
import { type ImageRecord, withImages } from "../shared/images.ts";

/**
 * What reads leave out of an event: the search text is long and never shown, and every value Prisma hands over
 * costs (a tenth of a list's time went into reading it). The iCalendar columns (source, SEQUENCE) are read by the feeds alone.
 */
export const EVENT_COLUMNS = {
  omit: {
    searchText: true,
    icalUid: true,
    icalRecurrenceId: true,
    icalSequence: true,
    icalModifiedUtc: true,
    sequence: true,
    overrides: true,
  },
} as const satisfies Pick<Prisma.EventFindManyArgs, "omit">;

type EventColumns = Prisma.EventGetPayload<typeof EVENT_COLUMNS>;

/** What every event read loads with the event itself: its image and the ids of its links, in their order. */
export type EventRow = EventColumns & {
  image: ImageRecord | null;
  venues: Array<{ venueId: number }>;
  organizers: Array<{ organizerId: number }>;
  categories: Array<{ categoryId: number }>;
  tags: Array<{ tagId: number }>;
};

type LinkKind = "venue" | "organizer" | "category" | "tag";

interface LinkRow {
  kind: LinkKind;
  eventId: number | bigint;
  targetId: number | bigint;
}

/**
 * The links of a page of events from the four link tables in one statement (a Prisma `include` reads each table
 * on its own, and every query costs more than the rows it reads): venues and organizers in their positions.
 */
async function linksOf(db: Db | Tx, ids: readonly number[]): Promise<Map<number, Record<LinkKind, number[]>>> {
  const eventIds = Prisma.join([...ids]);
  const rows = await db.$queryRaw<LinkRow[]>`
    SELECT 'venue' AS "kind", "eventId", "venueId" AS "targetId", "position" FROM "EventVenue" WHERE "eventId" IN (${eventIds})
    UNION ALL
    SELECT 'organizer', "eventId", "organizerId", "position" FROM "EventOrganizer" WHERE "eventId" IN (${eventIds})
    UNION ALL
    SELECT 'category', "eventId", "categoryId", 0 FROM "EventCategory" WHERE "eventId" IN (${eventIds})
    UNION ALL
    SELECT 'tag', "eventId", "tagId", 0 FROM "EventTag" WHERE "eventId" IN (${eventIds})
    ORDER BY "eventId", "kind", "position", "targetId"`;
  const byEvent = new Map(
    ids.map((id) => [id, { venue: [], organizer: [], category: [], tag: [] } as Record<LinkKind, number[]>]),
  );
  for (const row of rows) byEvent.get(Number(row.eventId))?.[row.kind].push(Number(row.targetId));
  return byEvent;
}

/** Event rows with their links and images: two more statements for any number of rows (one without images). */
export async function withEventLinks(db: Db | Tx, rows: readonly EventColumns[]): Promise<EventRow[]> {
  if (rows.length === 0) return [];
  const links = await linksOf(
    db,
    rows.map((row) => row.id),
  );
  const linked = rows.map((row) => {
    const of = links.get(row.id);
    return {
      ...row,
      venues: (of?.venue ?? []).map((venueId) => ({ venueId })),
      organizers: (of?.organizer ?? []).map((organizerId) => ({ organizerId })),
      categories: (of?.category ?? []).map((categoryId) => ({ categoryId })),
      tags: (of?.tag ?? []).map((tagId) => ({ tagId })),
    };
  });
  return withImages(db, linked);
}

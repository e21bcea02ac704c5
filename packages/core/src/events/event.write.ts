import type { Prisma } from "../generated/sqlite/client.ts";
import { costToStore } from "../shared/cost.ts";
import { formatWallTime, parseDateTime } from "../shared/dates.ts";
import type { EventWriteFields } from "./event.schemas.ts";

/** Pure pieces of an event write: which columns a write sets, and the values derived from them. */

/** The plain columns a write sets (undefined ones are left alone; on create the column defaults apply). */
export function scalarChanges(fields: EventWriteFields) {
  return {
    title: fields.title,
    description: fields.description,
    excerpt: fields.excerpt,
    website: fields.website,
    cost: fields.cost === undefined ? undefined : costToStore(fields.cost),
    password: fields.password,
    showMap: fields.show_map,
    showMapLink: fields.show_map_link,
    hideFromListings: fields.hide_from_listings,
    sticky: fields.sticky,
    featured: fields.featured,
    ticketed: fields.ticketed,
  } satisfies Prisma.EventUncheckedUpdateInput;
}

/** Did the write send any field of the schedule? */
export function changesSchedule(fields: EventWriteFields): boolean {
  return [fields.start_date, fields.end_date, fields.timezone, fields.all_day].some((value) => value !== undefined);
}

export interface PostDate {
  postDate: string;
  postDateUtc: Date;
}

/**
 * The publication date a write sets, if any: `date_utc` read as UTC wins over `date`, which is read in the event's
 * zone. Stored as site-local wall time and the instant.
 */
export function postDateOf(
  fields: Pick<EventWriteFields, "date" | "date_utc">,
  eventZone: string,
  siteZone: string,
  now: Date = new Date(),
): PostDate | undefined {
  const parsed =
    fields.date_utc !== undefined
      ? parseDateTime(fields.date_utc, "UTC", now)
      : fields.date !== undefined
        ? parseDateTime(fields.date, eventZone, now)
        : undefined;
  if (!parsed) return undefined;
  const instant = parsed.startOf("second").toJSDate();
  return { postDate: formatWallTime(instant, siteZone), postDateUtc: instant };
}

/** The unique ids of a list, in their first order. */
export function uniqueIds(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

/**
 * Does the write name a venue, organizer or term, one it creates unless it exists? Such a write runs serializable,
 * as `POST /venues` does: the name has no unique index, so two servers could otherwise both find it missing.
 */
export function namesLinkedRecords(fields: Pick<EventWriteFields, "venue" | "organizer" | "categories" | "tags">) {
  const inline = (refs: ReadonlyArray<unknown> | undefined) =>
    refs?.some((ref) => typeof ref === "object" && ref !== null && !("id" in ref)) ?? false;
  const termNames = [...(fields.categories ?? []), ...(fields.tags ?? [])];
  return inline(fields.venue) || inline(fields.organizer) || termNames.some((ref) => typeof ref === "string");
}

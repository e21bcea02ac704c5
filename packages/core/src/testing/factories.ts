import type { Db } from "../db/db.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import { slugify } from "../shared/slug.ts";
import { nameKeyOf } from "../terms/term.where.ts";

/**
 * Rows with fixed defaults for tests that write to the database directly (as epic-stack's factories): every value
 * a test does not state is the same on every run, so a row only spells out what the test is about.
 */

/** The post and modification stamps of every factory row: 2030-01-01 10:00 UTC. */
export const FIXED_STAMPS = {
  postDate: "2030-01-01 10:00:00",
  postDateUtc: new Date("2030-01-01T10:00:00Z"),
  modified: "2030-01-01 10:00:00",
  modifiedUtc: new Date("2030-01-01T10:00:00Z"),
} as const;

/** An event of one hour, 2030-01-01 10:00–11:00 UTC, titled "Concert". */
export function eventRow(fields: Partial<Prisma.EventUncheckedCreateInput> = {}): Prisma.EventUncheckedCreateInput {
  const title = fields.title ?? "Concert";
  return {
    title,
    slug: slugify(title),
    ...FIXED_STAMPS,
    startLocal: "2030-01-01 10:00:00",
    endLocal: "2030-01-01 11:00:00",
    startUtc: new Date("2030-01-01T10:00:00Z"),
    endUtc: new Date("2030-01-01T11:00:00Z"),
    timezone: "UTC",
    ...fields,
  };
}

/** The columns venues and organizers share, named `name`. */
function linkedPostRow(name: string) {
  return { name, nameKey: nameKeyOf(name), slug: slugify(name), ...FIXED_STAMPS };
}

/** A venue named "Town Hall". */
export function venueRow(fields: Partial<Prisma.VenueUncheckedCreateInput> = {}): Prisma.VenueUncheckedCreateInput {
  return { ...linkedPostRow(fields.name ?? "Town Hall"), ...fields };
}

/** An organizer named "Arts Council". */
export function organizerRow(
  fields: Partial<Prisma.OrganizerUncheckedCreateInput> = {},
): Prisma.OrganizerUncheckedCreateInput {
  return { ...linkedPostRow(fields.name ?? "Arts Council"), ...fields };
}

/** A category or tag named "Music". */
export function termRow<T extends { name?: string }>(fields: T = {} as T) {
  const name = fields.name ?? "Music";
  return { name, nameKey: nameKeyOf(name), slug: slugify(name), ...fields };
}

/** A user "tester" with the role subscriber. */
export function userRow(fields: Partial<Prisma.UserUncheckedCreateInput> = {}): Prisma.UserUncheckedCreateInput {
  return { login: "tester", role: "subscriber", ...fields };
}

/** The rows above, written. */
export const create = {
  event: (db: Db, fields?: Partial<Prisma.EventUncheckedCreateInput>) => db.event.create({ data: eventRow(fields) }),
  venue: (db: Db, fields?: Partial<Prisma.VenueUncheckedCreateInput>) => db.venue.create({ data: venueRow(fields) }),
  organizer: (db: Db, fields?: Partial<Prisma.OrganizerUncheckedCreateInput>) =>
    db.organizer.create({ data: organizerRow(fields) }),
  category: (db: Db, fields: Partial<Prisma.CategoryUncheckedCreateInput> = {}) =>
    db.category.create({ data: termRow(fields) }),
  tag: (db: Db, fields: Partial<Prisma.TagUncheckedCreateInput> = {}) => db.tag.create({ data: termRow(fields) }),
  user: (db: Db, fields?: Partial<Prisma.UserUncheckedCreateInput>) => db.user.create({ data: userRow(fields) }),
};

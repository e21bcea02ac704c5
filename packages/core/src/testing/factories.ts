import type { Db } from "../db/db.ts";
import type { EventRow } from "../events/event.rows.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { OrganizerRow } from "../organizers/organizer.present.ts";
import { DEFAULT_LANGUAGE } from "../shared/language.ts";
import { slugify } from "../shared/slug.ts";
import type { TermRow } from "../terms/term.store.ts";
import { nameKeyOf } from "../terms/term.where.ts";
import type { VenueRow } from "../venues/venue.present.ts";
import { VENUE_DEFAULTS } from "../venues/venue.service.ts";

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

/** The title or name of a factory row that does not state one. */
const DEFAULT_NAMES = { event: "Concert", venue: "Town Hall", organizer: "Arts Council", term: "Music" } as const;

/** An event's own columns: one hour, 2030-01-01 10:00–11:00 UTC. */
function eventColumns(title: string, language: string) {
  return {
    title,
    slug: slugify(title, language),
    ...FIXED_STAMPS,
    startLocal: "2030-01-01 10:00:00",
    endLocal: "2030-01-01 11:00:00",
    startUtc: new Date("2030-01-01T10:00:00Z"),
    endUtc: new Date("2030-01-01T11:00:00Z"),
    timezone: "UTC",
  };
}

/** An event of one hour, 2030-01-01 10:00–11:00 UTC, titled "Concert". */
export function eventRow(fields: Partial<Prisma.EventUncheckedCreateInput> = {}): Prisma.EventUncheckedCreateInput {
  return { ...eventColumns(fields.title ?? DEFAULT_NAMES.event, fields.language ?? DEFAULT_LANGUAGE), ...fields };
}

/** The columns venues and organizers share, named `name`. */
function linkedPostRow(name: string, language: string) {
  return { name, nameKey: nameKeyOf(name), slug: slugify(name, language), ...FIXED_STAMPS };
}

/** A venue named "Town Hall". */
export function venueRow(fields: Partial<Prisma.VenueUncheckedCreateInput> = {}): Prisma.VenueUncheckedCreateInput {
  return { ...linkedPostRow(fields.name ?? DEFAULT_NAMES.venue, fields.language ?? DEFAULT_LANGUAGE), ...fields };
}

/** An organizer named "Arts Council". */
export function organizerRow(
  fields: Partial<Prisma.OrganizerUncheckedCreateInput> = {},
): Prisma.OrganizerUncheckedCreateInput {
  return { ...linkedPostRow(fields.name ?? DEFAULT_NAMES.organizer, fields.language ?? DEFAULT_LANGUAGE), ...fields };
}

/** The columns categories and tags share, named `name`. */
function termColumns(name: string, language: string) {
  return { name, nameKey: nameKeyOf(name), slug: slugify(name, language) };
}

/** A category named "Music". */
export function categoryRow(
  fields: Partial<Prisma.CategoryUncheckedCreateInput> = {},
): Prisma.CategoryUncheckedCreateInput {
  return { ...termColumns(fields.name ?? DEFAULT_NAMES.term, fields.language ?? DEFAULT_LANGUAGE), ...fields };
}

/** A tag named "Music". */
export function tagRow(fields: Partial<Prisma.TagUncheckedCreateInput> = {}): Prisma.TagUncheckedCreateInput {
  return { ...termColumns(fields.name ?? DEFAULT_NAMES.term, fields.language ?? DEFAULT_LANGUAGE), ...fields };
}

/** A user "tester" with the role subscriber. */
export function userRow(fields: Partial<Prisma.UserUncheckedCreateInput> = {}): Prisma.UserUncheckedCreateInput {
  return { login: "tester", role: "subscriber", ...fields };
}

/** Version 1 of the change feed: tag 1, a published English tag, created at the fixed modification stamp. */
export function changeRow(fields: Partial<Prisma.ChangeUncheckedCreateInput> = {}): Prisma.ChangeUncheckedCreateInput {
  return {
    version: 1,
    type: "tag",
    recordId: 1,
    action: "created",
    language: "en",
    status: "publish",
    protected: false,
    modifiedUtc: FIXED_STAMPS.modifiedUtc,
    ...fields,
  };
}

/** An active webhook subscription to every change, that has been handed none yet (cursor 0). */
export function webhookSubscriptionRow(
  fields: Partial<Prisma.WebhookSubscriptionUncheckedCreateInput> = {},
): Prisma.WebhookSubscriptionUncheckedCreateInput {
  return { url: "https://example.com/", secret: "whsec_x", cursor: 0, ...fields };
}

/** The rows above, written. */
export const create = {
  event: (db: Db, fields?: Partial<Prisma.EventUncheckedCreateInput>) => db.event.create({ data: eventRow(fields) }),
  venue: (db: Db, fields?: Partial<Prisma.VenueUncheckedCreateInput>) => db.venue.create({ data: venueRow(fields) }),
  organizer: (db: Db, fields?: Partial<Prisma.OrganizerUncheckedCreateInput>) =>
    db.organizer.create({ data: organizerRow(fields) }),
  category: (db: Db, fields?: Partial<Prisma.CategoryUncheckedCreateInput>) =>
    db.category.create({ data: categoryRow(fields) }),
  tag: (db: Db, fields?: Partial<Prisma.TagUncheckedCreateInput>) => db.tag.create({ data: tagRow(fields) }),
  user: (db: Db, fields?: Partial<Prisma.UserUncheckedCreateInput>) => db.user.create({ data: userRow(fields) }),
  webhookSubscription: (db: Db, fields?: Partial<Prisma.WebhookSubscriptionUncheckedCreateInput>) =>
    db.webhookSubscription.create({ data: webhookSubscriptionRow(fields) }),
};

/**
 * Records as the reads hand them to the presenters, for tests of the pure presenters: the columns of the rows
 * above, the schema's defaults for the others (prisma/sqlite/schema.prisma), the id 1 and no image.
 * factories.test.ts checks them against what a read of the written rows returns.
 */

/** The schema's defaults of the columns events, venues and organizers share. */
const POST_DEFAULTS = {
  description: "",
  excerpt: "",
  status: "publish",
  authorId: null,
  language: "en",
  translationGroup: null,
  password: "",
  website: "",
  imageId: null,
} as const;

/** The schema's defaults of the columns venues and organizers share besides those of every post. */
const LINKED_POST_DEFAULTS = { ...POST_DEFAULTS, phone: "", searchText: "" } as const;

/** An event as `loadEventRow` returns it: `eventRow`'s, with no links. */
export function eventRecord(fields: Partial<EventRow> = {}): EventRow {
  return {
    id: 1,
    ...POST_DEFAULTS,
    ...eventColumns(fields.title ?? DEFAULT_NAMES.event, fields.language ?? DEFAULT_LANGUAGE),
    allDay: false,
    hideFromListings: false,
    sticky: false,
    featured: false,
    showMap: true,
    showMapLink: true,
    cost: "",
    parentId: null,
    ticketed: false,
    seriesId: null,
    originalStartLocal: null,
    originalStartUtc: null,
    image: null,
    venues: [],
    organizers: [],
    categories: [],
    tags: [],
    ...fields,
  };
}

/** A venue as the venue store reads it: `venueRow`'s, with no address and no coordinates. */
export function venueRecord(fields: Partial<VenueRow> = {}): VenueRow {
  return {
    id: 1,
    ...LINKED_POST_DEFAULTS,
    ...linkedPostRow(fields.name ?? DEFAULT_NAMES.venue, fields.language ?? DEFAULT_LANGUAGE),
    ...VENUE_DEFAULTS,
    image: null,
    ...fields,
  };
}

/** An organizer as the organizer store reads it: `organizerRow`'s, with no email. */
export function organizerRecord(fields: Partial<OrganizerRow> = {}): OrganizerRow {
  return {
    id: 1,
    ...LINKED_POST_DEFAULTS,
    ...linkedPostRow(fields.name ?? DEFAULT_NAMES.organizer, fields.language ?? DEFAULT_LANGUAGE),
    email: "",
    image: null,
    ...fields,
  };
}

/** A category or tag as the term store reads it: `categoryRow`'s, with no parent and no counted event. */
export function termRecord(fields: Partial<TermRow> = {}): TermRow {
  return {
    id: 1,
    ...termColumns(fields.name ?? DEFAULT_NAMES.term, fields.language ?? DEFAULT_LANGUAGE),
    description: "",
    parentId: null,
    language: "en",
    translationGroup: null,
    eventCount: 0,
    ...fields,
  };
}

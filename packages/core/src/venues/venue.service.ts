import type { Db, Tx } from "../db/db.ts";
import type { LinkedPostKind, LinkedPostStore } from "../linked-posts/linked-post.kind.ts";
import { linkedPostService } from "../linked-posts/linked-post.service.ts";
import { LINKED_POST_ORDER } from "../linked-posts/linked-post.where.ts";
import type { Scope } from "../scope.ts";
import { definedOnly } from "../shared/fields.ts";
import { withImage, withImages } from "../shared/images.ts";
import { presentVenue, type VenueColumns } from "./venue.present.ts";
import type { VenueCreateBody, VenueOutput, VenueUpdateBody } from "./venue.schemas.ts";
import { VENUE_SEARCH_COLUMNS } from "./venue.where.ts";

function venueStore(db: Tx): LinkedPostStore<VenueColumns> {
  return {
    findFirst: async (where) => {
      const row = await db.venue.findFirst({ where });
      return row && withImage(db, row);
    },
    findMany: async ({ where, skip, take }) =>
      withImages(db, await db.venue.findMany({ where, orderBy: LINKED_POST_ORDER, skip, take })),
    create: async (data) => withImage(db, await db.venue.create({ data })),
    update: async (id, common, own) =>
      withImage(db, await db.venue.update({ where: { id }, data: { ...common, ...own } })),
    unlinkEvents: async (id) => {
      await db.eventVenue.deleteMany({ where: { venueId: id } });
    },
    remove: async (id) => {
      await db.venue.delete({ where: { id } });
    },
  };
}

/** The venue's own columns when a create does not send them. */
export const VENUE_DEFAULTS = {
  address: "",
  city: "",
  country: "",
  province: "",
  state: "",
  zip: "",
  stateprovince: "",
  showMap: true,
  showMapLink: true,
  geoLat: null,
  geoLng: null,
} satisfies VenueColumns;

const venueKind = {
  singular: "venue",
  plural: "venues",
  store: venueStore,
  defaults: VENUE_DEFAULTS,
  nameOf: (body) => body.venue,
  ownColumnsOf: (body) =>
    definedOnly({
      address: body.address,
      city: body.city,
      country: body.country,
      province: body.province,
      state: body.state,
      zip: body.zip,
      stateprovince: body.stateprovince,
      showMap: body.show_map,
      showMapLink: body.show_map_link,
      geoLat: body.geo_lat,
      geoLng: body.geo_lng,
    }),
  searchColumns: VENUE_SEARCH_COLUMNS,
  present: presentVenue,
} satisfies LinkedPostKind<VenueColumns, VenueUpdateBody, VenueOutput>;

const venues = linkedPostService(venueKind);

export const listVenues = venues.list;
export const getVenue = venues.get;
export const createVenue: (scope: Scope, body: VenueCreateBody) => Promise<VenueOutput> = venues.create;
export const updateVenue = venues.update;
export const deleteVenue = venues.remove;

/**
 * Creates a venue inside the caller's transaction (an inline venue of an event write) and returns its id.
 * A duplicate (same name, case- and accent-insensitively, and same description when one is sent) is reused
 * instead. Throws DomainError on invalid data or missing rights; a slug race surfaces as Prisma's P2002, which
 * the caller's transaction runner should retry (`runWrite` in linked-posts does).
 */
export const createVenueInTx: (tx: Tx, scope: Scope, input: VenueCreateBody) => Promise<number> = venues.createInTx;

/**
 * The wire shapes of venues by id, in two queries whatever the number of ids. Missing and trashed ids are left
 * out; password-protected venues are redacted unless the actor may edit them.
 */
export const loadVenuesById: (
  db: Db,
  scope: Scope,
  ids: readonly number[],
  options: { jsonLd: boolean },
) => Promise<Map<number, VenueOutput>> = venues.loadById;

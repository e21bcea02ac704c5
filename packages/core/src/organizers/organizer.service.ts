import type { Db, Tx } from "../db/db.ts";
import type { LinkedPostKind, LinkedPostStore } from "../linked-posts/linked-post.kind.ts";
import { linkedPostService } from "../linked-posts/linked-post.service.ts";
import { LINKED_POST_ORDER } from "../linked-posts/linked-post.where.ts";
import type { Scope } from "../scope.ts";
import { definedOnly } from "../shared/fields.ts";
import { withImage, withImages } from "../shared/images.ts";
import { type OrganizerColumns, presentOrganizer } from "./organizer.present.ts";
import type { OrganizerCreateBody, OrganizerOutput, OrganizerUpdateBody } from "./organizer.schemas.ts";
import { ORGANIZER_SEARCH_COLUMNS } from "./organizer.where.ts";

function organizerStore(db: Tx): LinkedPostStore<OrganizerColumns> {
  return {
    findFirst: async (where) => {
      const row = await db.organizer.findFirst({ where });
      return row && withImage(db, row);
    },
    findMany: async ({ where, skip, take }) =>
      withImages(db, await db.organizer.findMany({ where, orderBy: LINKED_POST_ORDER, skip, take })),
    create: async (data) => withImage(db, await db.organizer.create({ data })),
    update: async (id, common, own) =>
      withImage(db, await db.organizer.update({ where: { id }, data: { ...common, ...own } })),
    unlinkEvents: async (id) => {
      await db.eventOrganizer.deleteMany({ where: { organizerId: id } });
    },
    remove: async (id) => {
      await db.organizer.delete({ where: { id } });
    },
  };
}

const organizerKind = {
  singular: "organizer",
  plural: "organizers",
  store: organizerStore,
  defaults: { email: "" },
  nameOf: (body) => body.organizer,
  ownColumnsOf: (body) => definedOnly({ email: body.email }),
  searchColumns: ORGANIZER_SEARCH_COLUMNS,
  present: presentOrganizer,
} satisfies LinkedPostKind<OrganizerColumns, OrganizerUpdateBody, OrganizerOutput>;

const organizers = linkedPostService(organizerKind);

export const listOrganizers = organizers.list;
export const getOrganizer = organizers.get;
export const createOrganizer: (scope: Scope, body: OrganizerCreateBody) => Promise<OrganizerOutput> = organizers.create;
export const updateOrganizer = organizers.update;
export const deleteOrganizer = organizers.remove;

/**
 * Creates an organizer inside the caller's transaction (an inline organizer of an event write) and returns its id.
 * A duplicate (same name, case- and accent-insensitively, and same description when one is sent) is reused
 * instead. Throws DomainError on invalid data or missing rights; a slug race surfaces as Prisma's P2002, which
 * the caller's transaction runner should retry (`runWrite` in linked-posts does).
 */
export const createOrganizerInTx: (tx: Tx, scope: Scope, input: OrganizerCreateBody) => Promise<number> =
  organizers.createInTx;

/**
 * The wire shapes of organizers by id, in two queries whatever the number of ids. Missing and trashed ids are left
 * out; password-protected organizers are redacted unless the actor may edit them.
 */
export const loadOrganizersById: (
  db: Db,
  scope: Scope,
  ids: readonly number[],
  options: { jsonLd: boolean },
) => Promise<Map<number, OrganizerOutput>> = organizers.loadById;

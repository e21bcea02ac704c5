import type { Tx } from "../db/db.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { PresentView } from "../shared/present-view.ts";
import type { LinkedPostWriteFields } from "./linked-post.schemas.ts";

/**
 * Venues and organizers behave alike (the reference calls them linked posts): one service drives both through a
 * `LinkedPostKind`, which supplies what differs (table, own columns, search fields, wire shape).
 */

/** A `where` valid for both tables (their common columns and their `events` link relation). */
export type LinkedPostWhere = Prisma.VenueWhereInput & Prisma.OrganizerWhereInput;

/** The columns venues and organizers share. */
export interface LinkedPostColumns {
  name: string;
  nameKey: string;
  slug: string;
  description: string;
  excerpt: string;
  status: string;
  authorId: number | null;
  language: string;
  translationGroup: string | null;
  postDate: string;
  postDateUtc: Date;
  modified: string;
  modifiedUtc: Date;
  password: string;
  website: string;
  phone: string;
  imageId: number | null;
  searchText: string;
}

/** The names of the text columns of a record type. */
export type TextColumn<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];

/** A stored record with its image, as every query of the store returns it. */
export type LinkedPostRow<Own> = LinkedPostColumns &
  Own & {
    id: number;
    image: { id: number; url: string } | null;
  };

/** The queries the service needs, bound to one table. */
export interface LinkedPostStore<Own> {
  findFirst(where: LinkedPostWhere): Promise<LinkedPostRow<Own> | null>;
  /** Newest first (post date, then id). */
  findMany(args: { where: LinkedPostWhere; skip?: number; take?: number }): Promise<Array<LinkedPostRow<Own>>>;
  create(data: LinkedPostColumns & Own): Promise<LinkedPostRow<Own>>;
  update(id: number, common: Partial<LinkedPostColumns>, own?: Partial<Own>): Promise<LinkedPostRow<Own>>;
  /** Removes every event's link to the record. */
  unlinkEvents(id: number): Promise<void>;
  remove(id: number): Promise<void>;
}

export interface LinkedPostKind<Own, Body extends LinkedPostWriteFields, Output> {
  singular: "venue" | "organizer";
  plural: "venues" | "organizers";
  store(db: Tx): LinkedPostStore<Own>;
  /** The own columns of a new record where the write leaves them out. */
  defaults: Own;
  /** The name sent in a write (`venue` / `organizer`). */
  nameOf(body: Body): string | undefined;
  /** The own columns a write sets (only the fields sent). */
  ownColumnsOf(body: Body): Partial<Own>;
  /** The own columns searched besides name, description and excerpt, in a fixed order. */
  searchColumns: ReadonlyArray<TextColumn<LinkedPostColumns & Own>>;
  present(row: LinkedPostRow<Own>, view: PresentView): Output;
}

import type { Db, Tx } from "../db/db.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { Taxonomy } from "./term.schemas.ts";

/**
 * One interface over the two term tables: categories (with a parent) and tags (without). Tags behave as terms
 * whose parent is always none, so the shared code never asks which kind it holds.
 */

export type Client = Db | Tx;

export interface TermRow {
  id: number;
  name: string;
  nameKey: string;
  slug: string;
  description: string;
  parentId: number | null;
  language: string;
  translationGroup: string | null;
  /** Published events of the term's language linked to it (maintained by the event writes). */
  eventCount: number;
}

/** A filter over terms: the subset of Prisma's where input that both tables understand, plus `parentId`. */
export interface TermWhere {
  AND?: TermWhere[];
  OR?: TermWhere[];
  NOT?: TermWhere;
  id?: number | { in?: number[]; notIn?: number[]; not?: number };
  language?: string;
  slug?: string | { contains: string } | { in: string[] };
  nameKey?: string | { contains: string } | { in: string[] };
  translationGroup?: string | { in: string[] };
  parentId?: number | null;
  eventCount?: { gt: number };
  events?: { some: { eventId?: number; event?: { status: string; language: string } } };
}

export type TermSortField = "id" | "nameKey" | "slug";
export type TermOrderBy = Partial<Record<TermSortField, "asc" | "desc">>;

export interface TermFindOptions {
  orderBy?: TermOrderBy[];
  skip?: number;
  take?: number;
}

export type TermData = Omit<TermRow, "id" | "eventCount">;

const COMMON_SELECT = {
  id: true,
  name: true,
  nameKey: true,
  slug: true,
  description: true,
  language: true,
  translationGroup: true,
  eventCount: true,
} as const;

const NO_MATCH = { id: { in: [] } };

/** Tags have no parent: `parentId: null` holds for every tag, any other parent for none. */
function tagWhere({ AND, OR, NOT, parentId, ...rest }: TermWhere): Prisma.TagWhereInput {
  return {
    ...rest,
    ...(parentId === undefined || parentId === null ? {} : NO_MATCH),
    ...(AND ? { AND: AND.map(tagWhere) } : {}),
    ...(OR ? { OR: OR.map(tagWhere) } : {}),
    ...(NOT ? { NOT: tagWhere(NOT) } : {}),
  };
}

function asTag(row: Omit<TermRow, "parentId">): TermRow {
  return { ...row, parentId: null };
}

export interface TermStore {
  readonly taxonomy: Taxonomy;
  find(where: TermWhere, options?: TermFindOptions): Promise<TermRow[]>;
  count(where: TermWhere): Promise<number>;
  create(data: TermData): Promise<TermRow>;
  update(id: number, data: Partial<TermData>): Promise<TermRow>;
  setTranslationGroup(id: number, group: string): Promise<void>;
  /** Deletes the term and its event links; the children of a category move up to its parent. */
  remove(term: TermRow): Promise<void>;
}

function categoryStore(client: Client): TermStore {
  const select = { ...COMMON_SELECT, parentId: true } as const;
  return {
    taxonomy: "category",
    find: (where, options = {}) => client.category.findMany({ where, ...options, select }),
    count: (where) => client.category.count({ where }),
    create: (data) => client.category.create({ data, select }),
    update: (id, data) => client.category.update({ where: { id }, data, select }),
    setTranslationGroup: async (id, translationGroup) => {
      await client.category.update({ where: { id }, data: { translationGroup } });
    },
    remove: async (term) => {
      await client.category.updateMany({ where: { parentId: term.id }, data: { parentId: term.parentId } });
      await client.eventCategory.deleteMany({ where: { categoryId: term.id } });
      await client.category.delete({ where: { id: term.id } });
    },
  };
}

function tagStore(client: Client): TermStore {
  return {
    taxonomy: "tag",
    find: async (where, options = {}) =>
      (await client.tag.findMany({ where: tagWhere(where), ...options, select: COMMON_SELECT })).map(asTag),
    count: (where) => client.tag.count({ where: tagWhere(where) }),
    create: async ({ parentId: _none, ...data }) => asTag(await client.tag.create({ data, select: COMMON_SELECT })),
    update: async (id, { parentId: _none, ...data }) =>
      asTag(await client.tag.update({ where: { id }, data, select: COMMON_SELECT })),
    setTranslationGroup: async (id, translationGroup) => {
      await client.tag.update({ where: { id }, data: { translationGroup } });
    },
    remove: async (term) => {
      await client.eventTag.deleteMany({ where: { tagId: term.id } });
      await client.tag.delete({ where: { id: term.id } });
    },
  };
}

export function termStore(client: Client, taxonomy: Taxonomy): TermStore {
  return taxonomy === "category" ? categoryStore(client) : tagStore(client);
}

/** Is a slug of this language taken (by another term than `exceptId`)? For `uniqueSlug`. */
export function slugTaken(store: TermStore, language: string, exceptId?: number) {
  return async (slug: string) =>
    (await store.count({ language, slug, ...(exceptId === undefined ? {} : { id: { not: exceptId } }) })) > 0;
}

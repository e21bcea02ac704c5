import { advanceChangeVersion } from "../changes/change-version.ts";
import type { Db, Tx } from "../db/db.ts";
import { LANGUAGES } from "../shared/language.ts";

/**
 * The `eventCount` of categories and tags (WordPress' term count): the published events of the term's language
 * linked to it, but for password-protected ones, whose terms are details their password hides (WordPress counts
 * them; docs/behaviour.md, "Categories and tags"). Kept on the term so that reads never count (a page of events shows dozens of terms, each linked to
 * thousands of events), and changed in the transaction of every event write by increments, which commute: writes
 * of different events never lose each other's counts.
 */

/** An event's term links as far as the counts are concerned. */
export interface CountedLinks {
  language: string;
  status: string;
  password: string;
  categoryIds: readonly number[];
  tagIds: readonly number[];
}

/** What an event read must include for `countedLinksOf`. */
export const EVENT_TERM_LINKS = {
  categories: { select: { categoryId: true } },
  tags: { select: { tagId: true } },
} as const;

export function countedLinksOf(event: {
  language: string;
  status: string;
  password: string;
  categories: ReadonlyArray<{ categoryId: number }>;
  tags: ReadonlyArray<{ tagId: number }>;
}): CountedLinks {
  return {
    language: event.language,
    status: event.status,
    password: event.password,
    categoryIds: event.categories.map((link) => link.categoryId),
    tagIds: event.tags.map((link) => link.tagId),
  };
}

/** The events that count: published, without a password (the `where` of `recountTermEvents` says the same). */
function counts(state: CountedLinks | undefined): state is CountedLinks {
  return state?.status === "publish" && state.password === "";
}

function counted(state: CountedLinks | undefined, ids: (state: CountedLinks) => readonly number[]): Set<number> {
  return new Set(counts(state) ? ids(state) : []);
}

const TAXONOMIES = [
  { taxonomy: "category", ids: (state: CountedLinks) => state.categoryIds },
  { taxonomy: "tag", ids: (state: CountedLinks) => state.tagIds },
] as const;

type Taxonomy = (typeof TAXONOMIES)[number]["taxonomy"];

async function addToCounts(tx: Tx, taxonomy: Taxonomy, ids: number[], language: string, by: number) {
  if (ids.length === 0 || by === 0) return;
  const data = { eventCount: by > 0 ? { increment: by } : { decrement: -by } };
  // Terms of another language than the event's are linked but not counted.
  const where = { id: { in: ids }, language };
  if (taxonomy === "category") await tx.category.updateMany({ where, data });
  else await tx.tag.updateMany({ where, data });
}

/**
 * One event's write: the terms it stops counting for (unpublished, unlinked, deleted) lose one, those it starts
 * counting for gain one. `before` is undefined for a new event, `after` for a deleted one.
 */
export async function moveTermCounts(
  tx: Tx,
  before: CountedLinks | undefined,
  after: CountedLinks | undefined,
): Promise<void> {
  for (const taxonomy of TAXONOMIES) {
    const old = counted(before, taxonomy.ids);
    const now = counted(after, taxonomy.ids);
    const lost = [...old].filter((id) => !now.has(id));
    const gained = [...now].filter((id) => !old.has(id));
    if (before) await addToCounts(tx, taxonomy.taxonomy, lost, before.language, -1);
    if (after) await addToCounts(tx, taxonomy.taxonomy, gained, after.language, 1);
  }
}

/** Many new events at once: each term gains the number of new published events linking it, in few statements. */
export async function addNewEventsToTermCounts(tx: Tx, created: readonly CountedLinks[]): Promise<void> {
  await moveTermCountsOfMany(
    tx,
    created.map((after) => ({ before: undefined, after })),
  );
}

/**
 * Many events' writes at once (a series edit): `moveTermCounts` of each, summed per term, in a few statements (one
 * per taxonomy, language and amount).
 */
export async function moveTermCountsOfMany(
  tx: Tx,
  moves: ReadonlyArray<{ before: CountedLinks | undefined; after: CountedLinks | undefined }>,
): Promise<void> {
  for (const taxonomy of TAXONOMIES) {
    const deltas = new Map<string, Map<number, number>>();
    const add = (language: string, id: number, by: number) => {
      const byTerm = deltas.get(language) ?? new Map<number, number>();
      byTerm.set(id, (byTerm.get(id) ?? 0) + by);
      deltas.set(language, byTerm);
    };
    for (const { before, after } of moves) {
      const old = counted(before, taxonomy.ids);
      const now = counted(after, taxonomy.ids);
      if (before) for (const id of old) if (!now.has(id)) add(before.language, id, -1);
      if (after) for (const id of now) if (!old.has(id)) add(after.language, id, 1);
    }
    for (const [language, byTerm] of deltas) {
      const idsByDelta = new Map<number, number[]>();
      for (const [id, delta] of byTerm) idsByDelta.set(delta, [...(idsByDelta.get(delta) ?? []), id]);
      for (const [delta, ids] of idsByDelta) await addToCounts(tx, taxonomy.taxonomy, ids, language, delta);
    }
  }
}

function idsByCount(groups: ReadonlyArray<{ id: number; count: number }>): Map<number, number[]> {
  const byCount = new Map<number, number[]>();
  for (const { id, count } of groups) byCount.set(count, [...(byCount.get(count) ?? []), id]);
  return byCount;
}

/**
 * Counts every term's events anew, in one transaction: for data written around the services (a restore, a
 * hand-made fix). The services keep the counts right by themselves.
 */
export async function recountTermEvents(db: Db): Promise<void> {
  await db.$transaction(async (tx) => {
    const categories: Array<{ id: number; count: number }> = [];
    const tags: Array<{ id: number; count: number }> = [];
    for (const language of LANGUAGES) {
      const published = { status: "publish", password: "", language };
      for (const group of await tx.eventCategory.groupBy({
        by: ["categoryId"],
        where: { event: published, category: { language } },
        _count: { _all: true },
      })) {
        categories.push({ id: group.categoryId, count: group._count._all });
      }
      for (const group of await tx.eventTag.groupBy({
        by: ["tagId"],
        where: { event: published, tag: { language } },
        _count: { _all: true },
      })) {
        tags.push({ id: group.tagId, count: group._count._all });
      }
    }
    await tx.category.updateMany({ data: { eventCount: 0 } });
    await tx.tag.updateMany({ data: { eventCount: 0 } });
    for (const [count, ids] of idsByCount(categories)) {
      await tx.category.updateMany({ where: { id: { in: ids } }, data: { eventCount: count } });
    }
    for (const [count, ids] of idsByCount(tags)) {
      await tx.tag.updateMany({ where: { id: { in: ids } }, data: { eventCount: count } });
    }
    await advanceChangeVersion(tx);
  });
}

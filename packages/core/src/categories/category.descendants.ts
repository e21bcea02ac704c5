import { invalidParam } from "../errors.ts";
import type { Client } from "../terms/term.store.ts";

/** How many levels below a category the `categories` filter follows, and how many categories it may reach. */
export const CATEGORY_FILTER_BOUNDS = { depth: 20, categories: 1_000 } as const;

/**
 * The categories `ids` with all their descendants, as a WordPress tax query matches them (`include_children`
 * defaults to true): one query per level. A filter that would reach more categories than the bound, or go deeper,
 * is a 400 naming `param` rather than a silently shorter list.
 */
export async function withDescendantCategories(db: Client, ids: readonly number[], param: string): Promise<number[]> {
  const reached = new Set(ids);
  let level = [...reached];
  for (let depth = 0; level.length > 0; depth++) {
    const children = await db.category.findMany({
      where: { parentId: { in: level }, id: { notIn: [...reached] } },
      select: { id: true },
      orderBy: { id: "asc" },
      take: CATEGORY_FILTER_BOUNDS.categories + 1,
    });
    if (children.length === 0) break;
    if (depth >= CATEGORY_FILTER_BOUNDS.depth || reached.size + children.length > CATEGORY_FILTER_BOUNDS.categories) {
      throw invalidParam(
        param,
        `These categories have more than ${CATEGORY_FILTER_BOUNDS.categories} subcategories, or more than ${CATEGORY_FILTER_BOUNDS.depth} levels of them; name fewer or deeper ones.`,
      );
    }
    level = children.map((child) => child.id);
    for (const id of level) reached.add(id);
  }
  return [...reached];
}

import { likeSafeSearchText } from "../shared/search.ts";
import type { TermListQuery } from "./term.schemas.ts";
import type { TermOrderBy, TermRow, TermWhere } from "./term.store.ts";

/** The stored `nameKey` of a name (and the form names are compared in): normalized and safe inside LIKE. */
export function nameKeyOf(name: string): string {
  return likeSafeSearchText([name]);
}

/** Slugs hold only letters, digits, marks and hyphens, so a search with LIKE's special characters never hits one. */
const LIKE_SPECIAL = /[%_\\]/;

/** `search`: a substring of the name or of the slug, case- and accent-insensitive (docs/behaviour.md, "Categories and tags"). */
export function termSearchWhere(search: string): TermWhere {
  const slugPart = search.normalize("NFC").trim().toLowerCase();
  return {
    OR: [
      { nameKey: { contains: nameKeyOf(search) } },
      ...(LIKE_SPECIAL.test(slugPart) ? [] : [{ slug: { contains: slugPart } }]),
    ],
  };
}

/** Terms with at least one published event in their language (what `hide_empty` keeps and `count` counts). */
export const HAS_PUBLISHED_EVENTS: TermWhere = { eventCount: { gt: 0 } };

export type SortDirection = "asc" | "desc";

/** How a list is ordered: by the database (paged there), or in memory (count and include order). */
export type TermSort =
  | { kind: "database"; orderBy: TermOrderBy[] }
  | { kind: "count"; direction: SortDirection }
  | { kind: "include"; ids: number[]; direction: SortDirection };

/** `orderby`/`order`: name (case-insensitive) ascending by default; ties by id. */
export function termSort(query: Pick<TermListQuery, "order" | "orderby" | "include">): TermSort {
  const direction = query.order ?? "asc";
  switch (query.orderby) {
    case "id":
      return { kind: "database", orderBy: [{ id: direction }] };
    case "slug":
      return { kind: "database", orderBy: [{ slug: direction }, { id: direction }] };
    case "count":
      return { kind: "count", direction };
    case "include":
      if (query.include) return { kind: "include", ids: query.include, direction };
      break;
  }
  return { kind: "database", orderBy: [{ nameKey: direction }, { id: direction }] };
}

function compareValues(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** By published-event count, then name, then id, all in `direction`. */
export function sortByCount(rows: readonly TermRow[], counts: ReadonlyMap<number, number>, direction: SortDirection) {
  const sign = direction === "asc" ? 1 : -1;
  const countOf = (row: TermRow) => counts.get(row.id) ?? 0;
  return [...rows].sort(
    (a, b) =>
      sign *
      (compareValues(countOf(a), countOf(b)) || compareValues(a.nameKey, b.nameKey) || compareValues(a.id, b.id)),
  );
}

/** In the order of the `include` list (reversed for desc). */
export function sortByInclude(rows: readonly TermRow[], ids: readonly number[], direction: SortDirection) {
  const sign = direction === "asc" ? 1 : -1;
  const position = new Map(ids.map((id, index) => [id, index]));
  return [...rows].sort((a, b) => sign * compareValues(position.get(a.id) ?? 0, position.get(b.id) ?? 0));
}

import { readerOf } from "../db/db.ts";
import { JSON_SQL, type JsonSql, perProvider } from "../db/json-sql.ts";
import { invalidParam } from "../errors.ts";
import type { Scope } from "../scope.ts";

/** How many levels below a category the `categories` filter follows, and how many categories it may reach. */
export const CATEGORY_FILTER_BOUNDS = { depth: 20, categories: 1_000 } as const;

/**
 * The named categories and every category below them, each at the shallowest level it is reached at, as one
 * statement on the driver (a Prisma query per level cost a filtered list 8 % more CPU). The recursion stops one level
 * past the bound, so a deeper tree is seen without walking all of it.
 */
function descendantsStatement(sql: JsonSql): string {
  const reached = `WITH RECURSIVE "reached"("id", "depth") AS (
    SELECT c."id", 0 FROM "Category" c WHERE ${sql.inIds(`c."id"`)}
    UNION
    SELECT c."id", r."depth" + 1 FROM "Category" c JOIN "reached" r ON c."parentId" = r."id"
    WHERE r."depth" <= ${CATEGORY_FILTER_BOUNDS.depth}
  ), "shallowest" AS (SELECT "id", MIN("depth") AS "depth" FROM "reached" GROUP BY "id")`;
  const document = sql.object([
    ["ids", sql.array(`s."id"`, `FROM "shallowest" s`, `s."id"`)],
    ["deepest", `(SELECT MAX("depth") FROM "shallowest")`],
  ]);
  return `${reached} SELECT ${sql.text(document)}`;
}

const STATEMENTS = perProvider(descendantsStatement);

/**
 * The categories `ids` with all their descendants, as a WordPress tax query matches them (`include_children`
 * defaults to true). A filter that would reach more categories than the bound, or go deeper, is a 400 naming
 * `param` rather than a silently shorter list.
 */
export async function withDescendantCategories(
  scope: Pick<Scope, "db" | "provider">,
  ids: readonly number[],
  param: string,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const text = await readerOf(scope.db).json(STATEMENTS[scope.provider], [JSON_SQL[scope.provider].idsParam(ids)]);
  const found = JSON.parse(text ?? '{"ids":[],"deepest":null}') as { ids: number[]; deepest: number | null };
  if ((found.deepest ?? 0) > CATEGORY_FILTER_BOUNDS.depth || found.ids.length > CATEGORY_FILTER_BOUNDS.categories) {
    throw invalidParam(
      param,
      `These categories have more than ${CATEGORY_FILTER_BOUNDS.categories} subcategories, or more than ${CATEGORY_FILTER_BOUNDS.depth} levels of them; name fewer or deeper ones.`,
    );
  }
  return found.ids;
}

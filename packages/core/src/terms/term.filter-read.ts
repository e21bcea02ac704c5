import type { Provider } from "../db/db.ts";
import { readerOf } from "../db/db.ts";
import { JSON_SQL, type JsonSql } from "../db/json-sql.ts";
import type { SqlParam } from "../db/reader.ts";
import type { Scope } from "../scope.ts";
import type { Taxonomy } from "./term.schemas.ts";

/** A term a list filter named: by its slug in the scope's language (`bySlug`), or by its id. */
export interface FilterTerm {
  id: number;
  slug: string;
  bySlug: boolean;
}

const TABLES: Record<Taxonomy, string> = { category: "Category", tag: "Tag" };

/** The slugs bound as the statement's third value. */
const SLUG_IN: Record<Provider, (column: string) => string> = {
  sqlite: (column) => `${column} IN (SELECT "value" FROM json_each(?))`,
  postgres: (column) => `${column} = ANY($3::text[])`,
};

const slugsParam = (provider: Provider, slugs: readonly string[]): SqlParam =>
  provider === "sqlite" ? JSON.stringify(slugs) : [...slugs];

function statementOf(provider: Provider, sql: JsonSql, table: string): string {
  const bySlug = `(t."language" = ${sql.param(2)} AND ${SLUG_IN[provider](`t."slug"`)})`;
  const element = sql.object([
    ["id", `t."id"`],
    ["slug", `t."slug"`],
    ["bySlug", `CASE WHEN ${bySlug} THEN 1 ELSE 0 END`],
  ]);
  return `SELECT ${sql.text(sql.aggregate(element))} FROM "${table}" t WHERE ${sql.inIds(`t."id"`)} OR ${bySlug}`;
}

/**
 * The terms of a filter in one statement on the driver: a filtered list named two taxonomies by two Prisma queries
 * each (slugs, then ids), which cost it more CPU than the rest of its filter.
 */
const STATEMENTS = Object.fromEntries(
  (["sqlite", "postgres"] as const).map((provider) => [
    provider,
    {
      category: statementOf(provider, JSON_SQL[provider], TABLES.category),
      tag: statementOf(provider, JSON_SQL[provider], TABLES.tag),
    },
  ]),
) as Record<Provider, Record<Taxonomy, string>>;

export async function readFilterTerms(
  scope: Pick<Scope, "db" | "provider" | "language">,
  taxonomy: Taxonomy,
  refs: { slugs: readonly string[]; ids: readonly number[] },
): Promise<FilterTerm[]> {
  const { provider } = scope;
  // SQLite binds in order of appearance: ids, then the language and slugs twice (the WHERE and the element).
  const params: SqlParam[] =
    provider === "sqlite"
      ? [
          scope.language,
          slugsParam(provider, refs.slugs),
          JSON_SQL.sqlite.idsParam(refs.ids),
          scope.language,
          slugsParam(provider, refs.slugs),
        ]
      : [JSON_SQL.postgres.idsParam(refs.ids), scope.language, slugsParam(provider, refs.slugs)];
  const text = await readerOf(scope.db).json(STATEMENTS[provider][taxonomy], params);
  const rows = JSON.parse(text ?? "[]") as Array<{ id: number; slug: string; bySlug: number | boolean }>;
  return rows.map((row) => ({ id: row.id, slug: row.slug, bySlug: row.bySlug === 1 || row.bySlug === true }));
}

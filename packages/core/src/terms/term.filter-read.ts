import type { Provider } from "../db/db.ts";
import { readerOf } from "../db/db.ts";
import { JSON_SQL, type JsonSql } from "../db/json-sql.ts";
import type { SqlParam } from "../db/reader.ts";
import type { Scope } from "../scope.ts";
import { TERM_TABLES } from "./term.document.ts";
import type { Taxonomy } from "./term.schemas.ts";

/** A term a list filter named: by its slug in the scope's language (`bySlug`), or by its id. */
export interface FilterTerm {
  id: number;
  slug: string;
  bySlug: boolean;
}

/** The slugs bound as the statement's third value. */
const SLUG_IN: Record<Provider, (column: string) => string> = {
  sqlite: (column) => `${column} IN (SELECT "value" FROM json_each(?))`,
  postgres: (column) => `${column} = ANY($3::text[])`,
};

const slugsParam = (provider: Provider, slugs: readonly string[]): SqlParam =>
  provider === "sqlite" ? JSON.stringify(slugs) : [...slugs];

function statementOf(provider: Provider, sql: JsonSql, taxonomy: Taxonomy): string {
  const element = sql.object([
    ["id", `t."id"`],
    ["slug", `t."slug"`],
    ["language", `t."language"`],
  ]);
  const bySlug = `(t."language" = ${sql.param(2)} AND ${SLUG_IN[provider](`t."slug"`)})`;
  return `SELECT ${sql.text(sql.aggregate(element))} FROM "${TERM_TABLES[taxonomy].table}" t WHERE ${sql.inIds(`t."id"`)} OR ${bySlug}`;
}

/**
 * The terms of a filter in one statement on the driver: a filtered list named two taxonomies by two Prisma queries
 * each (slugs, then ids), which cost it more CPU than the rest of its filter.
 */
const STATEMENTS = Object.fromEntries(
  (["sqlite", "postgres"] as const).map((provider) => [
    provider,
    {
      category: statementOf(provider, JSON_SQL[provider], "category"),
      tag: statementOf(provider, JSON_SQL[provider], "tag"),
    },
  ]),
) as Record<Provider, Record<Taxonomy, string>>;

export async function readFilterTerms(
  scope: Pick<Scope, "db" | "provider" | "language">,
  taxonomy: Taxonomy,
  refs: { slugs: readonly string[]; ids: readonly number[] },
): Promise<FilterTerm[]> {
  const { provider, language } = scope;
  const params = [JSON_SQL[provider].idsParam(refs.ids), language, slugsParam(provider, refs.slugs)];
  const text = await readerOf(scope.db).json(STATEMENTS[provider][taxonomy], params);
  const rows = JSON.parse(text ?? "[]") as Array<{ id: number; slug: string; language: string }>;
  const slugs = new Set(refs.slugs);
  return rows.map((row) => ({ id: row.id, slug: row.slug, bySlug: row.language === language && slugs.has(row.slug) }));
}

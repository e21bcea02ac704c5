import { readerOf } from "../db/db.ts";
import { columnsOf, JSON_SQL } from "../db/json-sql.ts";
import { readPage } from "../db/page-sql.ts";
import type { TableSql } from "../db/where-sql.ts";
import type { Scope } from "../scope.ts";
import { pageWindow } from "../shared/query.ts";
import { type Translatable, type Translations, translationsOf } from "../shared/translations.ts";
import { buildTermWhere } from "./term.filters.ts";
import type { Taxonomy, TermListQuery } from "./term.schemas.ts";
import type { TermRow } from "./term.store.ts";
import { sortByCount, sortByInclude, termSort } from "./term.where.ts";

/**
 * A page of categories or tags in one statement on the raw reader: the total, and each term with the members of its
 * translation group, as one JSON document built by the database. The filters are the service's own `where`
 * (`buildTermWhere`), written as SQL; sorts by count or by `include` order are done here on all the matching terms,
 * as before.
 */

type StoredTerm = TermRow & { members: Translatable[] };

function tableOf(table: string, link: string, key: string, parent: string | undefined): TableSql {
  return {
    table,
    ...(parent ? { virtual: { parentId: parent } } : {}),
    relations: {
      events: { kind: "many", target: { table: link }, on: (inner, outer) => `${inner}."${key}" = ${outer}."id"` },
    },
  };
}

// A tag has no parent: every tag is at the top, as the Prisma store's tag filter has it.
export const TERM_TABLES: Record<Taxonomy, TableSql> = {
  category: tableOf("Category", "EventCategory", "categoryId", undefined),
  tag: tableOf("Tag", "EventTag", "tagId", "NULL"),
};

const TERM_COLUMNS = ["id", "name", "nameKey", "slug", "description", "language", "translationGroup", "eventCount"];
const MEMBER_COLUMNS = ["id", "language", "translationGroup"];

export interface TermPage {
  total: number;
  rows: TermRow[];
  /** The other members of each term's translation group, by term id. */
  translations: Map<number, Translations>;
}

/** The page of the request's language that the list query selects, in its order. */
export async function readTermPage(scope: Scope, taxonomy: Taxonomy, query: TermListQuery): Promise<TermPage> {
  const table = TERM_TABLES[taxonomy];
  const sql = JSON_SQL[scope.provider];
  const sort = termSort(query);
  const window = pageWindow(query);
  const page = await readPage<StoredTerm>(readerOf(scope.db), scope.provider, {
    table,
    where: buildTermWhere(query, scope.language),
    ...(sort.kind === "database" ? { orderBy: sort.orderBy, window } : { orderBy: [{ id: "asc" }] }),
    element: (alias) =>
      sql.object([
        ...columnsOf(alias, TERM_COLUMNS),
        ["parentId", table.virtual?.parentId ?? `${alias}."parentId"`],
        [
          "members",
          sql.array(
            sql.object(columnsOf("m", MEMBER_COLUMNS)),
            `FROM "${table.table}" m WHERE m."translationGroup" = ${alias}."translationGroup"`,
            `m."id"`,
          ),
        ],
      ]),
  });
  const members = page.rows.flatMap((row) => row.members);
  const all = page.rows.map(({ members: _members, ...row }) => row);
  const rows =
    sort.kind === "database"
      ? all
      : (sort.kind === "count"
          ? sortByCount(all, new Map(all.map((row) => [row.id, row.eventCount])), sort.direction)
          : sortByInclude(all, sort.ids, sort.direction)
        ).slice(window.skip, window.skip + window.take);
  return { total: page.total, rows, translations: await translationsOf(rows, async () => members) };
}

import type { Provider } from "./db.ts";
import { JSON_SQL } from "./json-sql.ts";
import type { JsonReader, SqlParam } from "./reader.ts";
import { type OrderByInput, orderBySql, SqlStatementBuilder, type TableSql, type WhereInput } from "./where-sql.ts";

/** A list page as one statement: the rows of `table` that `where` selects, in `orderBy`'s order. */
export interface PageQuery {
  table: TableSql;
  where: WhereInput;
  orderBy: OrderByInput;
  /** The rows of the page; all of them when absent. */
  window?: { skip: number; take: number };
  /** Each row's JSON, from the table's row named by the alias (with no bound values of its own). */
  element(alias: string): string;
}

/** What the page statement answers: the number of rows `where` selects, and the page's rows. */
export interface PageDocument<Row> {
  total: number;
  rows: Row[];
}

/** The fields `orderBy` names, with the id: all a page's selection needs to read, and to keep its order. */
export function keysOf(orderBy: OrderByInput): string[] {
  return [...new Set(["id", ...orderBy.flatMap((term) => Object.keys(term))])];
}

function pageStatement(provider: Provider, query: PageQuery): { text: string; params: SqlParam[] } {
  const sql = JSON_SQL[provider];
  const builder = new SqlStatementBuilder(provider);
  const table = `"${query.table.table}"`;
  const keys = keysOf(query.orderBy)
    .map((key) => `p."${key}"`)
    .join(", ");
  // SQLite binds in order of appearance, so each part is built in the order it is written.
  const total = `(SELECT COUNT(*) FROM ${table} p WHERE ${builder.where(query.table, "p", query.where)})`;
  const element = query.element("e");
  // The page is selected by its keys alone (an index can answer that), then each row is read by its id.
  const selected = `SELECT ${keys} FROM ${table} p WHERE ${builder.where(query.table, "p", query.where)} ORDER BY ${orderBySql("p", query.orderBy)}`;
  const window = query.window
    ? ` LIMIT ${builder.bind(query.window.take)} OFFSET ${builder.bind(query.window.skip)}`
    : "";
  const rows = sql.array(
    element,
    `FROM (${selected}${window}) k JOIN ${table} e ON e."id" = k."id"`,
    orderBySql("k", query.orderBy),
  );
  return {
    text: `SELECT ${sql.text(
      sql.object([
        ["total", total],
        ["rows", rows],
      ]),
    )}`,
    params: builder.params,
  };
}

export async function readPage<Row>(
  reader: JsonReader,
  provider: Provider,
  query: PageQuery,
): Promise<PageDocument<Row>> {
  const { text, params } = pageStatement(provider, query);
  const json = await reader.json(text, params);
  if (json === null) throw new Error("The page statement answers one row.");
  return JSON.parse(json) as PageDocument<Row>;
}

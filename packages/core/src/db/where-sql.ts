import type { Provider } from "./db.ts";
import { instantParam, JSON_SQL } from "./json-sql.ts";
import type { SqlParam } from "./reader.ts";

/**
 * The `where` and `orderBy` inputs the services build for Prisma, written as SQL for a raw read, so that a list's
 * filters stay defined once (by the service's where builder) whichever path reads them. Only the operators those
 * builders use are known; any other one is a programming error and throws.
 */

/** A table as its filters see it: columns spelled otherwise (a tag's absent parent) and relations by field name. */
export interface TableSql {
  table: string;
  /** Fields with no column of their own: the SQL expression that stands for them. */
  virtual?: Readonly<Record<string, string>>;
  relations?: Readonly<Record<string, RelationSql>>;
}

export interface RelationSql {
  /** `many`: filtered with `some`/`none`/`every`; `one`: with the related row's own filter. */
  kind: "many" | "one";
  target: TableSql;
  /** The join condition between the related row (`inner`) and the filtered row (`outer`). */
  on(inner: string, outer: string): string;
}

/** A Prisma where input (the subset described above). */
export type WhereInput = object;
export type OrderByInput = readonly object[];

const NOTHING = "1 = 0";
const EVERYTHING = "1 = 1";

function isPlainObject(value: unknown): value is WhereInput {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function unsupported(what: string): Error {
  return new Error(`The raw read does not support the filter ${what}.`);
}

/** The bound values of one statement, in the order their placeholders appear in its text. */
export class SqlStatementBuilder {
  readonly params: SqlParam[] = [];
  private aliases = 0;

  constructor(readonly provider: Provider) {}

  bind(value: SqlParam | Date): string {
    this.params.push(value instanceof Date ? instantParam(this.provider, value) : value);
    return JSON_SQL[this.provider].param(this.params.length);
  }

  /** A fresh table alias for a subquery. */
  alias(): string {
    this.aliases += 1;
    return `w${this.aliases}`;
  }

  /** `column` is one of `values`, bound as one value whatever their number. */
  private inList(column: string, values: readonly unknown[]): string {
    if (values.every((value) => typeof value === "number")) {
      const numbers = values as number[];
      return this.provider === "sqlite"
        ? `${column} IN (SELECT "value" FROM json_each(${this.bind(JSON.stringify(numbers))}))`
        : `${column} = ANY(${this.bind([...numbers])}::int[])`;
    }
    if (values.every((value) => typeof value === "string")) {
      const strings = values as string[];
      return this.provider === "sqlite"
        ? `${column} IN (SELECT "value" FROM json_each(${this.bind(JSON.stringify(strings))}))`
        : `${column} = ANY(${this.bind([...strings])}::text[])`;
    }
    throw unsupported(`in ${JSON.stringify(values)}`);
  }

  private literal(value: unknown): string {
    if (typeof value === "string" || typeof value === "number" || value instanceof Date) return this.bind(value);
    if (typeof value === "boolean") return this.provider === "sqlite" ? (value ? "1" : "0") : String(value);
    throw unsupported(JSON.stringify(value));
  }

  private field(table: TableSql, alias: string, field: string, filter: unknown): string {
    const column = table.virtual?.[field] ?? `${alias}."${field}"`;
    if (filter === null) return `${column} IS NULL`;
    if (!isPlainObject(filter)) return `${column} = ${this.literal(filter)}`;
    const conditions = Object.entries(filter).flatMap(([operator, value]) => {
      if (value === undefined) return [];
      switch (operator) {
        case "equals":
          return [value === null ? `${column} IS NULL` : `${column} = ${this.literal(value)}`];
        case "not":
          return [value === null ? `${column} IS NOT NULL` : `${column} <> ${this.literal(value)}`];
        case "in":
          return [Array.isArray(value) && value.length === 0 ? NOTHING : this.inList(column, value as unknown[])];
        case "notIn":
          return [
            Array.isArray(value) && value.length === 0
              ? EVERYTHING
              : `NOT (${this.inList(column, value as unknown[])})`,
          ];
        case "contains":
          return [`${column} LIKE ${this.bind(`%${String(value)}%`)}`];
        case "gt":
          return [`${column} > ${this.literal(value)}`];
        case "gte":
          return [`${column} >= ${this.literal(value)}`];
        case "lt":
          return [`${column} < ${this.literal(value)}`];
        case "lte":
          return [`${column} <= ${this.literal(value)}`];
        default:
          throw unsupported(`${field}.${operator}`);
      }
    });
    return conditions.length ? `(${conditions.join(" AND ")})` : EVERYTHING;
  }

  private relation(relation: RelationSql, outer: string, field: string, filter: unknown): string {
    if (!isPlainObject(filter)) throw unsupported(field);
    const related = (where: WhereInput, negate: boolean) => {
      const inner = this.alias();
      const condition = this.where(relation.target, inner, where);
      const matched = negate ? `NOT (${condition})` : condition;
      return `EXISTS (SELECT 1 FROM "${relation.target.table}" ${inner} WHERE ${relation.on(inner, outer)} AND ${matched})`;
    };
    if (relation.kind === "one") return related(filter, false);
    const conditions = Object.entries(filter).flatMap(([quantifier, where]) => {
      if (where === undefined) return [];
      if (!isPlainObject(where)) throw unsupported(`${field}.${quantifier}`);
      switch (quantifier) {
        case "some":
          return [related(where, false)];
        case "none":
          return [`NOT ${related(where, false)}`];
        case "every":
          return [`NOT ${related(where, true)}`];
        default:
          throw unsupported(`${field}.${quantifier}`);
      }
    });
    return conditions.length ? `(${conditions.join(" AND ")})` : EVERYTHING;
  }

  private list(table: TableSql, alias: string, wheres: unknown, joiner: " AND " | " OR "): string {
    const items = Array.isArray(wheres) ? wheres : [wheres];
    if (items.length === 0) return joiner === " AND " ? EVERYTHING : NOTHING;
    return `(${items
      .map((item) => {
        if (!isPlainObject(item)) throw unsupported(JSON.stringify(item));
        return this.where(table, alias, item);
      })
      .join(joiner)})`;
  }

  /** The condition `where` puts on the rows of `table` named `alias`. */
  where(table: TableSql, alias: string, where: WhereInput): string {
    const conditions = Object.entries(where).flatMap(([field, filter]) => {
      if (filter === undefined) return [];
      if (field === "AND") return [this.list(table, alias, filter, " AND ")];
      if (field === "OR") return [this.list(table, alias, filter, " OR ")];
      // Prisma's NOT with a list: none of them holds.
      if (field === "NOT")
        return (Array.isArray(filter) ? filter : [filter]).map(
          (item) => `NOT ${this.list(table, alias, item, " AND ")}`,
        );
      const relation = table.relations?.[field];
      return [relation ? this.relation(relation, alias, field, filter) : this.field(table, alias, field, filter)];
    });
    return conditions.length ? `(${conditions.join(" AND ")})` : EVERYTHING;
  }
}

/** `ORDER BY`'s terms for a Prisma `orderBy` list (of columns only). */
export function orderBySql(alias: string, orderBy: OrderByInput): string {
  return orderBy
    .flatMap((term) =>
      Object.entries(term).flatMap(([field, direction]) => {
        if (direction === undefined) return [];
        if (direction !== "asc" && direction !== "desc") throw unsupported(`orderBy ${field}`);
        return [`${alias}."${field}" ${direction.toUpperCase()}`];
      }),
    )
    .join(", ");
}

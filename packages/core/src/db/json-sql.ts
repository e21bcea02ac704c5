import type { Provider } from "./db.ts";
import type { SqlParam } from "./reader.ts";

/**
 * The few SQL spellings that differ between SQLite and PostgreSQL when a statement builds its own JSON answer.
 * Fields are `[name, SQL expression]` pairs; `array` is the JSON array of `element` over `from`, `[]` when empty.
 */
export interface JsonSql {
  object(fields: ReadonlyArray<readonly [string, string]>): string;
  array(element: string, from: string, orderBy: string): string;
  /** A scalar subquery whose one value is JSON (or NULL). */
  value(subquery: string): string;
  /** The `index`th (1-based) bound value. */
  param(index: number): string;
  /** The JSON text of the statement's one column. */
  text(json: string): string;
  /** The JSON array of `element` over the rows of the statement (`[]` when none). */
  aggregate(element: string): string;
  /** `column` is one of the ids bound as the statement's first value (`idsParam`). */
  inIds(column: string): string;
  idsParam(ids: readonly number[]): SqlParam;
}

function pairs(fields: ReadonlyArray<readonly [string, string]>): string {
  return fields.map(([name, expression]) => `'${name}', ${expression}`).join(", ");
}

// SQLite drops the JSON subtype of a subquery's value: json() gives it back, so it nests as JSON, not as a string.
const sqlite: JsonSql = {
  object: (fields) => `json_object(${pairs(fields)})`,
  array: (element, from, orderBy) => `json((SELECT json_group_array(${element} ORDER BY ${orderBy}) ${from}))`,
  value: (subquery) => `json((${subquery}))`,
  param: () => "?",
  text: (json) => json,
  aggregate: (element) => `json_group_array(${element})`,
  inIds: (column) => `${column} IN (SELECT "value" FROM json_each(?))`,
  idsParam: (ids) => JSON.stringify(ids),
};

const postgres: JsonSql = {
  object: (fields) => `json_build_object(${pairs(fields)})`,
  array: (element, from, orderBy) => `COALESCE((SELECT json_agg(${element} ORDER BY ${orderBy}) ${from}), '[]'::json)`,
  value: (subquery) => `(${subquery})`,
  param: (index) => `$${index}`,
  text: (json) => `(${json})::text`,
  aggregate: (element) => `COALESCE(json_agg(${element}), '[]'::json)`,
  inIds: (column) => `${column} = ANY($1::int[])`,
  idsParam: (ids) => [...ids],
};

export const JSON_SQL: Record<Provider, JsonSql> = { sqlite, postgres };

/** A statement (or set of statements) written once and spelled for each provider through its `JsonSql`. */
export function perProvider<T>(build: (sql: JsonSql, provider: Provider) => T): Record<Provider, T> {
  return { sqlite: build(sqlite, "sqlite"), postgres: build(postgres, "postgres") };
}

/** `[column, alias."column"]` for each column. */
export function columnsOf(alias: string, columns: readonly string[]): Array<readonly [string, string]> {
  return columns.map((column) => [column, `${alias}."${column}"`] as const);
}

/** A stored row as the database's JSON gives it: instants as ISO text, booleans as true/false or 1/0. */
export type Stored<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends boolean ? boolean | number : T[K];
};

type KeysOf<T, V> = { [K in keyof T]: T[K] extends V ? K : never }[keyof T];

/** The instant of a stored timestamp: SQLite keeps ISO text with its offset, PostgreSQL's JSON has none (UTC). */
export function instantOf(text: string): Date {
  return new Date(/(?:Z|[+-]\d\d:\d\d)$/.test(text) ? text : `${text}Z`);
}

/** The row Prisma would have read: instants as `Date`, booleans as booleans. */
export function reviveRow<T>(
  stored: Stored<T>,
  instants: ReadonlyArray<KeysOf<T, Date>>,
  flags: ReadonlyArray<KeysOf<T, boolean>>,
): T {
  const row: Record<PropertyKey, unknown> = { ...stored };
  for (const key of instants) row[key] = instantOf(String(row[key]));
  for (const key of flags) row[key] = flagOf(row[key]);
  return row as T;
}

/** An instant as a statement binds it: the ISO text (`+00:00`) Prisma's SQLite adapter stores, or UTC for PostgreSQL. */
export function instantParam(provider: Provider, instant: Date): string {
  const text = instant.toISOString();
  return provider === "sqlite" ? text.replace("Z", "+00:00") : text;
}

/** A boolean of a statement's JSON: SQLite gives 1/0. */
export function flagOf(value: unknown): boolean {
  return value === true || value === 1;
}

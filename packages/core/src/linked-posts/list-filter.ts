import { z } from "zod";
import type { QueryValue } from "../shared/links.ts";

/**
 * What every parameter of a list declares of itself, in its list's table (venues and organizers:
 * `linked-post.filters.ts`; categories and tags: `terms/term.filters.ts`). The list schema, the `where`, the
 * visibility guard and the echo in `rest_url`/`next_rest_url` are all derived from the table, so a parameter is
 * declared once and one that leaves out a property does not compile.
 */
export interface ListParameter<S extends z.ZodType> {
  /** Its input schema; the list schema is built from these, in the table's order. */
  schema: S;
  /** Can this value answer otherwise later with no write in between (does it compare with the clock)? */
  movesWithClock(value: z.output<S>): boolean;
  /** Its value in the list's links (`undefined`: left out); `query` is the whole parsed list query. */
  echo(value: z.output<S>, query: Readonly<Record<string, unknown>>): QueryValue;
}

/** The list schema of a table: one key per entry, each with the entry's schema. */
export function listQueryOf<T extends Record<string, { schema: z.ZodType }>>(table: T) {
  const shape = Object.fromEntries(Object.entries(table).map(([key, entry]) => [key, entry.schema]));
  return z.object(shape as { [K in keyof T]: T[K]["schema"] });
}

/** The entries of a table, each typed as any entry of it (the query parsed by its schema holds their values). */
export function entriesOf<T extends Record<string, unknown>>(table: T): Array<[keyof T & string, T[keyof T]]> {
  return Object.entries(table) as Array<[keyof T & string, T[keyof T]]>;
}

/** The parameters of `query` as the list's links repeat them, in the table's order. */
export function echoedQuery<P extends ListParameter<z.ZodType>>(
  table: Readonly<Record<string, P>>,
  query: Readonly<Record<string, unknown>>,
): Record<string, QueryValue> {
  return Object.fromEntries(Object.entries(table).map(([key, entry]) => [key, entry.echo(query[key], query)]));
}

/** Does a list query move with the clock: does any of its values, as its entry declares? */
export function listMovesWithClock<P extends ListParameter<z.ZodType>>(table: Readonly<Record<string, P>>) {
  return (query: Readonly<Record<string, unknown>>): boolean =>
    Object.entries(table).some(([key, entry]) => entry.movesWithClock(query[key]));
}

/** Echoes: the value as given, never, or unless it is the default. */
export const asGiven = <T extends QueryValue>(value: T): QueryValue => value;
export const never = (): QueryValue => undefined;
export const unless =
  <T extends QueryValue>(fallback: T) =>
  (value: T): QueryValue =>
    value === fallback ? undefined : value;

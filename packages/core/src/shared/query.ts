import { z } from "zod";

/**
 * zod helpers for the values WordPress clients send. REST requests deliver strings (from the query string or a
 * form body); tRPC and JSON bodies deliver typed values. Every helper accepts both and parses to one output type.
 * They are preprocess pipes on purpose: trpc-to-openapi only coerces bare number/boolean schemas, and it does so by
 * mutating them, which would change the tRPC behaviour too.
 */

/** Signed, so that `-5` is refused as a number out of range rather than as a string. */
const DECIMAL = /^-?\d+$/;

function toInteger(value: unknown): unknown {
  if (typeof value === "string" && DECIMAL.test(value.trim())) return Number(value.trim());
  return value;
}

/** The largest id: ids are 32-bit integers in both databases (PostgreSQL refuses larger numbers in a query). */
const MAX_ID = 2 ** 31 - 1;

/**
 * The decimal `id` of an item path. An invalid one means the route does not exist (404 `rest_no_route`, as the
 * reference's `(?P<id>\\d+)` routes): the error mapping treats every top-level `id` issue that way. So does an id
 * too large to exist.
 */
export const pathId = z
  .preprocess((value: number) => toInteger(value), z.number().int().nonnegative().max(MAX_ID))
  .meta({ description: "Numeric id of the item." });

/** A positive integer id (a body field or query parameter). */
export const positiveId = z.preprocess((value: number) => toInteger(value), z.number().int().positive().max(MAX_ID));

/** WordPress booleans: true/false/1/0 in any case, as strings or typed values. */
export const wpBoolean = z.preprocess((input: boolean) => {
  const value: unknown = input;
  if (typeof value === "string") {
    const lower = value.trim().toLowerCase();
    if (lower === "true" || lower === "1") return true;
    if (lower === "false" || lower === "0") return false;
  }
  if (value === 1 || value === 0) return value === 1;
  return value;
}, z.boolean());

/** Splits CSV strings and flattens arrays: `"1,2"`, `["1","2"]`, `[1,"2,3"]` → a flat list of trimmed items. */
export function listItems(value: unknown): unknown[] {
  const items = Array.isArray(value) ? value : [value];
  return items
    .flatMap((item) => (typeof item === "string" ? item.split(",") : [item]))
    .map((item) => (typeof item === "string" ? item.trim() : item))
    .filter((item) => item !== "");
}

/** The most items a list parameter takes (docs/behaviour.md, "Bounds"): every item costs a bound value and a lookup. */
export const MAX_LIST_ITEMS = 100;

/** A list of positive ids as an array, a CSV string or repeated keys. */
export const idList = z.preprocess(
  (value: number[] | number) => (value === undefined ? value : listItems(value).map(toInteger)),
  z.array(z.number().int().positive().max(MAX_ID)).max(MAX_LIST_ITEMS, `At most ${MAX_LIST_ITEMS} items.`),
);

/** A list of at most `max` term references (ids or slugs/names), as an array, CSV or repeated keys. */
export function termRefListOf(max: number, noun: string) {
  return z.preprocess(
    (value: Array<number | string> | number | string) =>
      value === undefined ? value : listItems(value).map(toInteger),
    z
      .array(z.union([z.number().int().positive().max(MAX_ID), z.string().min(1).max(200)]))
      .max(max, `At most ${max} ${noun}.`),
  );
}

/** A list parameter of term references. */
export const termRefList = termRefListOf(MAX_LIST_ITEMS, "items");

/** A non-empty string (WordPress' `is_string` validator rejects ""). */
export const nonEmptyString = z.string().trim().min(1, "Must not be empty.");

export const DEFAULT_PER_PAGE = 9;
export const MAX_PER_PAGE = 50;

export const page = z
  .preprocess((value: number) => toInteger(value), z.number().int().min(1).max(1_000_000))
  .default(1)
  .meta({ description: "Page of the results (from 1)." });

/**
 * Items per page: an integer from 1, of which at most `MAX_PER_PAGE` are served. A larger number is read as the
 * maximum, as the plugin reads it (`Archive_Base::sanitize_per_page`), since its clients ask for 100; the document
 * and the index declare the maximum, and the links echo the number served.
 */
export const perPage = z
  .preprocess((value: number) => toInteger(value), z.number().int().min(1))
  .transform((value) => Math.min(value, MAX_PER_PAGE))
  .default(DEFAULT_PER_PAGE)
  .meta({
    description: `Items per page, from 1 to ${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE}); a larger number is read as ${MAX_PER_PAGE}.`,
    maximum: MAX_PER_PAGE,
  });

export type Paging = { page: number; per_page: number };

/** `skip`/`take` of a page. */
export function pageWindow({ page, per_page }: Paging): { skip: number; take: number } {
  return { skip: (page - 1) * per_page, take: per_page };
}

export function totalPages(total: number, perPageCount: number): number {
  return Math.ceil(total / perPageCount);
}

import type { OpenApiMeta } from "trpc-to-openapi";
import type { ChangeType } from "../changes/change.schemas.ts";
import { type Context, type ListPage, setLastModified, setListHeaders, setRestStatus } from "./context.ts";

export type OperationMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * How a read's answer is validated, that is, what its ETag is (`apps/api/src/http/version-tags.ts`):
 * - `version`: the change version and the request, known before the procedure runs, for answers that change with
 *   the data alone. `movesWithClock` tells, from the input as the procedure's schema parsed it, when the answer
 *   moves with the clock too (`now`, a relative date, a default window): that answer is tagged as `body`.
 * - `body`: a hash of the body. Items are (their tag must not change with writes to other records, or `If-Match`
 *   would fail for nothing); `record` is the type of the record an item path shows, which the write preconditions
 *   of that path protect (null where the path shows no such record).
 */
export type ReadPolicy<Input = never> =
  | { cache: "version"; movesWithClock: (input: Input) => boolean }
  | { cache: "body"; record: ChangeType | null };

/** For lists whose answer never depends on the time of the request. */
export const neverMovesWithClock = (): boolean => false;

type RestMeta = NonNullable<OpenApiMeta["openapi"]>;

/**
 * A procedure's metadata: its REST operation, and for reads their HTTP policy, which a GET must declare. Marked
 * internal, so the published client's declarations (built with `stripInternal`) leave it out: they would otherwise
 * need trpc-to-openapi's and zod's types.
 */
export type ProcedureMeta =
  | {
      /** @internal */
      openapi: RestMeta & { method: "GET" };
      /** @internal */
      http: ReadPolicy;
    }
  | {
      /** @internal */
      openapi?: RestMeta & { method: Exclude<OperationMethod, "GET"> };
      /** @internal */
      http?: undefined;
    };

interface OperationBase {
  path: `/${string}`;
  /** The OpenAPI tag: the resource's collection (`events`, `venues`, …). */
  tag: string;
  summary: string;
  description: string;
  /** The failure statuses the operation answers, each with what it means here. */
  errors: Record<number, string>;
  /** Does it need credentials? By default reads do not and every other method does. */
  protect?: boolean;
}

/** A read declares its HTTP policy; a read without one does not compile. */
export type Operation<Input> =
  | (OperationBase & { method: "GET" } & ReadPolicy<Input>)
  | (OperationBase & { method: Exclude<OperationMethod, "GET"> });

/** A procedure's REST operation (and, for reads, their HTTP policy). */
export function operation<Input = never>(declared: Operation<Input>): ProcedureMeta {
  const { method, path, tag, summary, description, errors, protect = method !== "GET" } = declared;
  const openapi = { path, tags: [tag], summary, description, protect, errorResponses: errors };
  if (declared.method !== "GET") return { openapi: { ...openapi, method: declared.method } };
  const http: ReadPolicy<Input> =
    declared.cache === "version"
      ? { cache: "version", movesWithClock: declared.movesWithClock }
      : { cache: "body", record: declared.record };
  return { openapi: { ...openapi, method: "GET" }, http };
}

/** Sends an item's `Last-Modified` (REST) and answers the item. */
export function withLastModified<T extends { modified_utc: string }>(ctx: Context, item: T): T {
  setLastModified(ctx, item.modified_utc);
  return item;
}

/** Sends a list's totals and neighbours (REST headers) and answers the list. */
export function withListHeaders<T extends ListPage>(ctx: Context, page: T): T {
  setListHeaders(ctx, page);
  return page;
}

/** Answers a created item with 201 (REST). */
export function asCreated<T>(ctx: Context, item: T): T {
  setRestStatus(ctx, 201);
  return item;
}

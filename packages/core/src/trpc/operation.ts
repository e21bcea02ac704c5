import { type Context, type ListPage, setLastModified, setListHeaders, setRestStatus } from "./context.ts";

export type OperationMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Operation {
  method: OperationMethod;
  path: `/${string}`;
  /** The OpenAPI tag: the resource's collection (`events`, `venues`, …). */
  tag: string;
  summary: string;
  description: string;
  /** The failure statuses the operation answers, each with what it means here. */
  errors: Record<number, string>;
}

/** A procedure's REST operation: reads are public; every other method needs credentials. */
export function operation({ method, path, tag, summary, description, errors }: Operation) {
  return {
    openapi: { method, path, tags: [tag], summary, description, protect: method !== "GET", errorResponses: errors },
  };
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

import type { Operation } from "@trpc/client";

/** What a write of an item may be conditioned on: its ETag as read, or when it was read. */
// A type, not an interface: tRPC's call context is a record, which an interface is not assignable to.
export type WritePrecondition = {
  /** The write is done only if the item's ETag is still this one (or one of these); else it rejects with 412. */
  ifMatch?: string;
  /** The write is done only if the item has not changed since this time; else it rejects with 412. */
  ifUnmodifiedSince?: Date;
};

/** The options of a call that carry a precondition (the second argument of `mutate`). */
export type PreconditionOptions = { context: WritePrecondition };

/**
 * Options making a write of an item conditional: `client.venues.update.mutate(input, ifMatch(etag))` is done only
 * if the item's ETag is still `etag`; else it rejects with status 412 and code `rest_precondition_failed`.
 */
export function ifMatch(etag: string): PreconditionOptions {
  return { context: { ifMatch: etag } };
}

/** Options making a write of an item conditional on the item not having changed since `date` (else 412). */
export function ifUnmodifiedSince(date: Date): PreconditionOptions {
  return { context: { ifUnmodifiedSince: date } };
}

/** The `If-Match` / `If-Unmodified-Since` headers of a call's precondition, if it has one. */
export function preconditionHeaders(op: Operation): Record<string, string> {
  const { ifMatch: etag, ifUnmodifiedSince: date } = op.context;
  return {
    ...(typeof etag === "string" ? { "if-match": etag } : {}),
    ...(date instanceof Date ? { "if-unmodified-since": date.toUTCString() } : {}),
  };
}

/** Does the call carry a precondition (and so go out alone, with its own headers)? */
export function hasPrecondition(op: Operation): boolean {
  return Object.keys(preconditionHeaders(op)).length > 0;
}

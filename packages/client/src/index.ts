export { type CalendarClient, type CalendarClientOptions, createCalendarClient } from "./client.ts";
export { CalendarClientError, type CalendarErrorCode, type CalendarErrorParams, REQUEST_FAILED } from "./errors.ts";
export { ifMatch, ifUnmodifiedSince, type PreconditionOptions, type WritePrecondition } from "./preconditions.ts";
export { type SyncResult, syncChanges } from "./sync.ts";
export type * from "./types.ts";

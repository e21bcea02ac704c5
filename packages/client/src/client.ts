import type { AppRouter } from "@calendar/core";
import { createTRPCClient, httpBatchLink, httpLink, splitLink, type TRPCClient, type TRPCLink } from "@trpc/client";
import { calendarErrorLink } from "./errors.ts";
import { languageLink } from "./language.ts";
import { hasPrecondition, preconditionHeaders } from "./preconditions.ts";
import type { CalendarLanguage } from "./types.ts";

export interface CalendarClientOptions {
  /** The server's root, e.g. `http://127.0.0.1:3000` (the client talks to `<url>/trpc`). */
  url: string;
  /** An API token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** The `ml_language` of every call that does not give its own. */
  language?: CalendarLanguage;
  /** A fetch implementation (defaults to the global one). */
  fetch?: typeof globalThis.fetch;
}

/** A tRPC client typed by the calendar's router. */
export type CalendarClient = TRPCClient<AppRouter>;

/**
 * A client of the calendar's tRPC API; every failed call rejects with a `CalendarClientError`. A write of an item
 * made conditional with `ifMatch(etag)` (or `ifUnmodifiedSince(date)`) as its options goes out on its own request
 * with `If-Match` (`If-Unmodified-Since`), and rejects with status 412 and code `rest_precondition_failed` when
 * the item changed since it was read.
 */
export function createCalendarClient(options: CalendarClientOptions): CalendarClient {
  const { token, language, fetch } = options;
  const url = `${options.url.replace(/\/+$/, "")}/trpc`;
  const authorization = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  const links: TRPCLink<AppRouter>[] = [
    ...(language ? [languageLink(language)] : []),
    calendarErrorLink,
    splitLink({
      condition: hasPrecondition,
      true: httpLink({
        url,
        headers: ({ op }) => ({ ...authorization(), ...preconditionHeaders(op) }),
        ...(fetch ? { fetch } : {}),
      }),
      false: httpBatchLink({ url, headers: authorization, ...(fetch ? { fetch } : {}) }),
    }),
  ];
  return createTRPCClient<AppRouter>({ links });
}

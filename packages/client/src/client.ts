import type { AppRouter } from "@calendar/core";
import { createTRPCClient, httpBatchLink, type TRPCClient, type TRPCLink } from "@trpc/client";
import { calendarErrorLink } from "./errors.ts";
import { languageLink } from "./language.ts";
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

/** A client of the calendar's tRPC API; every failed call rejects with a `CalendarClientError`. */
export function createCalendarClient(options: CalendarClientOptions): CalendarClient {
  const { token, language, fetch } = options;
  const links: TRPCLink<AppRouter>[] = [
    ...(language ? [languageLink(language)] : []),
    calendarErrorLink,
    httpBatchLink({
      url: `${options.url.replace(/\/+$/, "")}/trpc`,
      headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      ...(fetch ? { fetch } : {}),
    }),
  ];
  return createTRPCClient<AppRouter>({ links });
}

import type { AppRouter } from "@calendar/core";
import { createTRPCClient, httpBatchLink } from "@trpc/client";

export type { AppRouter, RouterInputs, RouterOutputs } from "@calendar/core";

export interface CalendarClientOptions {
  /** The server's root, e.g. `http://127.0.0.1:3000` (the client talks to `<url>/trpc`). */
  url: string;
  /** An API token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** A fetch implementation (defaults to the global one). */
  fetch?: typeof globalThis.fetch;
}

/** A tRPC client typed by the calendar's router. */
export function createCalendarClient(options: CalendarClientOptions) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${options.url.replace(/\/+$/, "")}/trpc`,
        headers: () => (options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    ],
  });
}

export type CalendarClient = ReturnType<typeof createCalendarClient>;

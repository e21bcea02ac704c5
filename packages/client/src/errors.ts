import type { AppRouter, ErrorCode } from "@calendar/core";
import { TRPCClientError, type TRPCLink } from "@trpc/client";
import { observable } from "@trpc/server/observable";

/** The code of a failure the server did not answer with a calendar error (network down, aborted, a proxy's page). */
export const REQUEST_FAILED = "request_failed";

/**
 * Every code a call can reject with: the calendar's error codes (`rest-event-not-found`, `rest_invalid_param`, …)
 * and `request_failed`. A `switch` over `error.code` is checked for exhaustiveness.
 */
export type CalendarErrorCode = ErrorCode | typeof REQUEST_FAILED;

/** `rest_invalid_param` names each parameter with its reason; `rest_missing_callback_param` lists the absent ones. */
export type CalendarErrorParams = Record<string, string> | string[];

function isParams(value: unknown): value is CalendarErrorParams {
  if (Array.isArray(value)) return value.every((item) => typeof item === "string");
  return typeof value === "object" && value !== null && Object.values(value).every((item) => typeof item === "string");
}

function responseStatus(meta: Record<string, unknown> | undefined): number {
  const response = meta?.response;
  return response instanceof Response ? response.status : 0;
}

/**
 * What every call of a calendar client rejects with: the calendar's error `code` (the REST interface's, such as
 * `rest-event-not-found` or `rest_invalid_param`), its HTTP `status`, its `message` and, for invalid input, the
 * `params` at fault. It is a `TRPCClientError`, so `data.domain` carries any further members of the error.
 */
export class CalendarClientError extends TRPCClientError<AppRouter> {
  /** The calendar's error code, or `request_failed` when the server sent none. */
  readonly code: CalendarErrorCode;
  /** The HTTP status; 0 when no readable answer arrived. */
  readonly status: number;
  readonly params: CalendarErrorParams | undefined;

  constructor(error: TRPCClientError<AppRouter>) {
    super(error.message, {
      ...(error.shape ? { result: { error: error.shape } } : {}),
      ...(error.cause ? { cause: error.cause } : {}),
      ...(error.meta ? { meta: error.meta } : {}),
    });
    // TRPCClientError resets the prototype to its own; subclasses must set theirs back.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = "CalendarClientError";
    const domain = error.data?.domain;
    this.code = domain?.code ?? REQUEST_FAILED;
    this.status = domain?.status ?? responseStatus(error.meta);
    this.params = isParams(domain?.params) ? domain.params : undefined;
  }

  static fromError(error: unknown): CalendarClientError {
    return error instanceof CalendarClientError ? error : new CalendarClientError(TRPCClientError.from(toError(error)));
  }
}

function toError(error: unknown): Error | object {
  return typeof error === "object" && error !== null ? error : new Error(String(error));
}

/** Turns every failure of a call into a `CalendarClientError`. */
export const calendarErrorLink: TRPCLink<AppRouter> =
  () =>
  ({ next, op }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => observer.error(CalendarClientError.fromError(error)),
        complete: () => observer.complete(),
      }),
    );

import { DomainError, type DomainErrorData, domainError, type ErrorArgs, type ErrorCode } from "@calendar/core";

/** The WordPress error body: `{ code, message, data: { status, params?, …extra } }`. */
export interface RestErrorBody {
  code: ErrorCode;
  message: string;
  data: { status: number; [extra: string]: unknown };
}

/**
 * The one place the envelope is built, from a domain error or its wire form inside tRPC's `error.data.domain`.
 * `status` replaces the catalogue's for a framework's own 4xx (`rest_bad_request`).
 */
export function restErrorBody(error: DomainError | DomainErrorData, status?: number): RestErrorBody {
  if (error instanceof DomainError) {
    return { code: error.code, message: error.message, data: { status: status ?? error.status, ...error.extra } };
  }
  const { code, message, status: own, ...extra } = error;
  return { code, message, data: { status: status ?? own, ...extra } };
}

type RestErrorParameters<C extends ErrorCode> = ErrorArgs<C> extends undefined ? [] : [args: ErrorArgs<C>];

/** The envelope of the error `code` of the catalogue. */
export function restError<C extends ErrorCode>(code: C, ...args: RestErrorParameters<C>): RestErrorBody {
  // `args` is `RestErrorParameters<C>`; `domainError`'s overloads cannot take it generically.
  return restErrorBody((domainError as (code: ErrorCode, args?: unknown) => DomainError)(code, args[0]));
}

export const NO_ROUTE = restError("rest_no_route");

function domainOf(body: unknown): DomainErrorData | undefined {
  const data = (body as { data?: { domain?: DomainErrorData } } | null)?.data;
  return data?.domain;
}

/**
 * trpc-to-openapi always answers errors as `{ message, code: <tRPC code>, data, issues }` (its #168); the domain
 * error travels inside `data.domain`. This rewrites such a payload to the WordPress shape.
 */
export function reshapeErrorPayload(payload: string): string {
  try {
    const domain = domainOf(JSON.parse(payload));
    return domain ? JSON.stringify(restErrorBody(domain)) : payload;
  } catch {
    return payload;
  }
}

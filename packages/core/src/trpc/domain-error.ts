import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError } from "zod";
import { isDatabaseUnavailable } from "../db/availability.ts";
import { DomainError, invalidParams, missingParams } from "../errors.ts";

/** The wire form of a domain error inside tRPC's `error.data.domain`. */
export interface DomainErrorData {
  code: string;
  message: string;
  status: number;
  [extra: string]: unknown;
}

const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  410: "NOT_FOUND",
  412: "PRECONDITION_FAILED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

export function trpcCodeForStatus(status: number): TRPC_ERROR_CODE_KEY {
  return TRPC_CODE_BY_STATUS[status] ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");
}

export const databaseUnavailable = () =>
  new DomainError(503, "rest_database_unavailable", "The database is unavailable right now; try again shortly.");

export const noRoute = () =>
  new DomainError(404, "rest_no_route", "No route was found matching the URL and request method.");

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Input validation failures in WordPress' order: any required parameter that is absent gives
 * `rest_missing_callback_param` naming all of them; otherwise `rest_invalid_param` with a reason per parameter.
 */
function fromZodError(error: ZodError, input: unknown): DomainError {
  if (error.issues.some((issue) => issue.path.length === 1 && issue.path[0] === "id")) return noRoute();
  const given = isRecord(input) ? input : {};
  const missing = new Set<string>();
  const invalid: Record<string, string> = {};
  for (const issue of error.issues) {
    const [first, ...rest] = issue.path;
    const name = first === undefined ? "body" : String(first);
    if (rest.length === 0 && issue.code === "invalid_type" && given[name] === undefined && first !== undefined) {
      missing.add(name);
    } else if (!(name in invalid)) {
      invalid[name] = rest.length ? `${rest.join(".")}: ${issue.message}` : issue.message;
    }
  }
  return missing.size ? missingParams([...missing]) : invalidParams(invalid);
}

const FROM_TRPC_CODE: Partial<Record<TRPC_ERROR_CODE_KEY, () => DomainError>> = {
  NOT_FOUND: noRoute,
  METHOD_NOT_SUPPORTED: noRoute,
  PARSE_ERROR: () => new DomainError(400, "rest_invalid_json", "Invalid JSON body passed."),
  UNSUPPORTED_MEDIA_TYPE: () =>
    new DomainError(415, "rest_unsupported_media_type", "The request body must be JSON or form-encoded."),
  PAYLOAD_TOO_LARGE: () => new DomainError(413, "rest_payload_too_large", "The request body is too large."),
};

/** Whatever went wrong, as the domain error the client sees. Unknown failures become an opaque 500. */
export function toDomainError(error: TRPCError, input: unknown): DomainError {
  const { cause } = error;
  if (cause instanceof DomainError) return cause;
  if (cause instanceof ZodError) return fromZodError(cause, input);
  const known = FROM_TRPC_CODE[error.code];
  if (known) return known();
  if (error.code === "BAD_REQUEST") return invalidParams({ body: error.message });
  if (isDatabaseUnavailable(cause)) return databaseUnavailable();
  return new DomainError(500, "rest_internal_error", "Internal server error.");
}

export function domainErrorData(error: DomainError): DomainErrorData {
  return { ...error.extra, code: error.code, message: error.message, status: error.status };
}

/** Rethrows a domain error as a TRPCError whose code matches its status (what tRPC clients see). */
export function asTrpcError(error: DomainError): TRPCError {
  return new TRPCError({ code: trpcCodeForStatus(error.status), message: error.message, cause: error });
}

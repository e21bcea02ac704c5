import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError } from "zod";
import { isDatabaseUnavailable } from "../db/availability.ts";
import type { ErrorCode, ErrorStatus } from "../errors.catalogue.ts";
import { DomainError, domainError, invalidParams, missingParams } from "../errors.ts";
import { issueReason } from "../param-reasons.ts";

/** The wire form of a domain error inside tRPC's `error.data.domain`. */
export interface DomainErrorData {
  code: ErrorCode;
  message: string;
  status: number;
  [extra: string]: unknown;
}

/** The tRPC code of every status of the catalogue (a status added there fails to compile until it is mapped here). */
const TRPC_CODE_BY_STATUS: Record<ErrorStatus, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  408: "TIMEOUT",
  409: "CONFLICT",
  410: "NOT_FOUND",
  412: "PRECONDITION_FAILED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
  431: "BAD_REQUEST",
  500: "INTERNAL_SERVER_ERROR",
  503: "SERVICE_UNAVAILABLE",
};

function isErrorStatus(status: number): status is ErrorStatus {
  return status in TRPC_CODE_BY_STATUS;
}

export function trpcCodeForStatus(status: number): TRPC_ERROR_CODE_KEY {
  if (isErrorStatus(status)) return TRPC_CODE_BY_STATUS[status];
  return status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST";
}

export const databaseUnavailable = () => domainError("rest_database_unavailable");

export const noRoute = () => domainError("rest_no_route");

/**
 * The transport a failure is answered on. On REST, a path parameter (`id`) that does not parse means that the URL
 * matches no route (404 `rest_no_route`, as WordPress' route patterns answer); over tRPC it is an invalid parameter.
 */
export type Transport = "rest" | "trpc";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Input validation failures in WordPress' order: any required parameter that is absent gives
 * `rest_missing_callback_param` naming all of them; otherwise `rest_invalid_param` with a reason per parameter.
 */
function fromZodError(error: ZodError, input: unknown, transport: Transport): DomainError {
  if (transport === "rest" && error.issues.some((issue) => issue.path.length === 1 && issue.path[0] === "id")) {
    return noRoute();
  }
  const given = isRecord(input) ? input : {};
  const missing = new Set<string>();
  const invalid: Record<string, string> = {};
  for (const issue of error.issues.flatMap(unionBranchIssues)) {
    const [first, ...rest] = issue.path;
    const name = first === undefined ? "body" : String(first);
    if (rest.length === 0 && issue.code === "invalid_type" && given[name] === undefined && first !== undefined) {
      missing.add(name);
    } else if (!(name in invalid)) {
      invalid[name] = issueReason(issue);
    }
  }
  return missing.size ? missingParams([...missing]) : invalidParams(invalid);
}

type Issue = ZodError["issues"][number];

/**
 * A value that no member of a union accepts is explained by the one member whose type it has (an object sent for
 * `string[] | {…}` fails inside the object, not at the top), so the client reads the part at fault.
 */
function unionBranchIssues(issue: Issue): Issue[] {
  if (issue.code !== "invalid_union") return [issue];
  const ofItsType = issue.errors.filter(
    (branch) => !branch.some((inner) => inner.code === "invalid_type" && inner.path.length === 0),
  );
  const [branch] = ofItsType;
  if (ofItsType.length !== 1 || branch === undefined) return [issue];
  return branch.flatMap((inner) => unionBranchIssues({ ...inner, path: [...issue.path, ...inner.path] } as Issue));
}

const FROM_TRPC_CODE: Partial<Record<TRPC_ERROR_CODE_KEY, () => DomainError>> = {
  NOT_FOUND: noRoute,
  METHOD_NOT_SUPPORTED: noRoute,
  PARSE_ERROR: () => domainError("rest_invalid_json"),
  UNSUPPORTED_MEDIA_TYPE: () => domainError("rest_unsupported_media_type", { expected: "JSON or form-encoded" }),
  PAYLOAD_TOO_LARGE: () => domainError("rest_payload_too_large"),
};

/** Whatever went wrong, as the domain error the client sees. Unknown failures become an opaque 500. */
export function toDomainError(error: TRPCError, input: unknown, transport: Transport): DomainError {
  const { cause } = error;
  if (cause instanceof DomainError) return cause;
  if (cause instanceof ZodError) return fromZodError(cause, input, transport);
  const known = FROM_TRPC_CODE[error.code];
  if (known) return known();
  if (error.code === "BAD_REQUEST") return invalidParams({ body: error.message });
  if (isDatabaseUnavailable(cause)) return databaseUnavailable();
  return domainError("rest_internal_error");
}

export function domainErrorData(error: DomainError): DomainErrorData {
  return { ...error.extra, code: error.code, message: error.message, status: error.status };
}

/** Rethrows a domain error as a TRPCError whose code matches its status (what tRPC clients see). */
export function asTrpcError(error: DomainError): TRPCError {
  return new TRPCError({ code: trpcCodeForStatus(error.status), message: error.message, cause: error });
}

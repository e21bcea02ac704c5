import type { z } from "zod";
import { describeError, type ErrorArgs, type ErrorCode } from "./errors.catalogue.ts";
import { issueReason } from "./param-reasons.ts";

/** Extra members of the REST `data` object (`params`, `term_id`, …). */
export type ErrorExtra = Record<string, unknown>;

type DomainErrorParameters<C extends ErrorCode> =
  ErrorArgs<C> extends undefined ? [args?: undefined, extra?: ErrorExtra] : [args: ErrorArgs<C>, extra?: ErrorExtra];

/**
 * An error a client can cause: a code of `ERROR_CATALOGUE` with its status and message. Services throw these; the
 * tRPC error formatter copies them into `error.data.domain`, and the REST layer writes them as
 * `{ code, message, data: { status, params?, …extra } }`.
 */
export class DomainError extends Error {
  override readonly name = "DomainError";

  /** Made by `domainError(code, args)` (`DomainError.of`), which takes the status and message from the catalogue. */
  private constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: ErrorExtra = {},
  ) {
    super(message);
  }

  /** The error `code` of the catalogue, its message filled in with `args`. */
  static of<C extends ErrorCode>(code: C, ...[args, extra = {}]: DomainErrorParameters<C>): DomainError {
    const { status, message } = describeError(code, args as ErrorArgs<C>);
    return new DomainError(status, code, message, extra);
  }

  /** The same error told in other words (the command line names its options instead of parameters). */
  withMessage(message: string): DomainError {
    return new DomainError(this.status, this.code, message, this.extra);
  }
}

/** `DomainError.of`: the error `code` of the catalogue. */
export const domainError = DomainError.of;

/** 400 `rest_invalid_param` naming each parameter with its reason. */
export function invalidParams(params: Record<string, string>): DomainError {
  return domainError("rest_invalid_param", { names: Object.keys(params) }, { params });
}

export function invalidParam(name: string, reason = "Invalid parameter."): DomainError {
  return invalidParams({ [name]: reason });
}

/** 400 `rest_missing_callback_param` listing the absent required parameters. */
export function missingParams(names: string[]): DomainError {
  return domainError("rest_missing_callback_param", { names }, { params: names });
}

/** `rest_forbidden`: 401 for an anonymous request, 403 for a signed-in one without the capability. */
export function forbidden(anonymous: boolean): DomainError {
  return domainError("rest_forbidden", { anonymous });
}

export function unauthorized(reason = "The token is not valid."): DomainError {
  return domainError("rest_not_logged_in", { reason });
}

/** Parses `input` with `schema`, turning a failure into `rest_invalid_param` naming each field at fault. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const params: Record<string, string> = {};
  for (const issue of result.error.issues) params[String(issue.path[0] ?? "input")] ??= issueReason(issue);
  throw invalidParams(params);
}

import type { z } from "zod";

/**
 * An error a client can cause, carrying the WordPress-style code and HTTP status of the REST interface.
 * Services throw these; the tRPC error formatter copies them into `error.data.domain`, and the REST layer writes
 * them as `{ code, message, data: { status, params?, …extra } }`.
 */
export class DomainError extends Error {
  override readonly name = "DomainError";

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra members of the REST `data` object (`params`, `term_id`, …). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** 400 `rest_invalid_param` naming each parameter with its reason. */
export function invalidParams(params: Record<string, string>): DomainError {
  return new DomainError(400, "rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, {
    params,
  });
}

export function invalidParam(name: string, reason = "Invalid parameter."): DomainError {
  return invalidParams({ [name]: reason });
}

/** 400 `rest_missing_callback_param` listing the absent required parameters. */
export function missingParams(names: string[]): DomainError {
  return new DomainError(400, "rest_missing_callback_param", `Missing parameter(s): ${names.join(", ")}`, {
    params: names,
  });
}

/** `rest_forbidden`: 401 for an anonymous request, 403 for a signed-in one without the capability. */
export function forbidden(anonymous: boolean): DomainError {
  return new DomainError(anonymous ? 401 : 403, "rest_forbidden", "Sorry, you are not allowed to do that.");
}

export function unauthorized(message = "The token is not valid."): DomainError {
  return new DomainError(401, "rest_not_logged_in", message);
}

/** Parses `input` with `schema`, turning a failure into `rest_invalid_param` naming each field at fault. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const params: Record<string, string> = {};
  for (const issue of result.error.issues) params[String(issue.path[0] ?? "input")] ??= issue.message;
  throw invalidParams(params);
}

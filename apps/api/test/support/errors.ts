import type { AppRouter } from "@calendar/core";
import { TRPCClientError } from "@trpc/client";
import type { RestErrorBody } from "./rest-routes.ts";
import type { RestResponse } from "./server.ts";

/** The message of every 401 and 403 `rest_forbidden`. */
export const FORBIDDEN_MESSAGE = "Sorry, you are not allowed to do that.";

/** The REST error body of the reference: `{ code, message, data: { status, … } }`. */
export function restError(status: number, code: string, message: string, data: Record<string, unknown> = {}) {
  return { code, message, data: { status, ...data } };
}

/** What a path that matches no route answers (a non-decimal id included). */
export const NO_ROUTE = restError(404, "rest_no_route", "No route was found matching the URL and request method.");

/** The body of a 400 `rest_invalid_param` naming these parameters with these reasons. */
export function invalidParams(params: Record<string, string>) {
  return restError(400, "rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, { params });
}

/** The parameters a `rest_invalid_param` body names (the keys of its `data.params`). */
export function paramNames(body: RestErrorBody): string[] {
  const { params } = body.data;
  if (typeof params !== "object" || params === null) throw new Error(`No params in ${JSON.stringify(body)}`);
  return Object.keys(params);
}

/** A tRPC call that must fail, as a client sees the failure: the HTTP status and the domain error. */
export async function rpcError(call: Promise<unknown>) {
  const error = await call.then(
    (value) => {
      throw new Error(`The tRPC call was expected to fail; it answered ${JSON.stringify(value)}`);
    },
    (caught: unknown) => caught,
  );
  if (!(error instanceof TRPCClientError)) throw error;
  const { data } = error as TRPCClientError<AppRouter>;
  return { status: data?.httpStatus, domain: data?.domain };
}

/** An error over REST or tRPC in one form (status, code, message, and the parameters at fault), to compare both. */
export interface Failure {
  status: number;
  code: string;
  message: string;
  params?: unknown;
}

export function restFailure({ status, body }: RestResponse<RestErrorBody>): Failure {
  // An answer that is no error envelope (a success) has no `data`: the comparison with the expected failure shows it.
  const params = body.data?.params;
  return { status, code: body.code, message: body.message, ...(params === undefined ? {} : { params }) };
}

/** The failure of a tRPC call that must fail, in the same form as a REST failure. */
export async function trpcFailure(call: Promise<unknown>): Promise<Failure> {
  const { status, domain } = await rpcError(call);
  return {
    status: status ?? 0,
    code: domain?.code ?? "",
    message: domain?.message ?? "",
    ...(domain?.params === undefined ? {} : { params: domain.params }),
  };
}

/** 400 `rest_invalid_param` naming exactly one parameter with its reason, as a failure. */
export function invalidParam(name: string, reason: string): Failure {
  return {
    status: 400,
    code: "rest_invalid_param",
    message: `Invalid parameter(s): ${name}`,
    params: { [name]: reason },
  };
}

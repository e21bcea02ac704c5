import { DomainError, domainError, type Transport, toDomainError } from "@calendar/core";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { type RestErrorBody, restError, restErrorBody } from "./envelope.ts";
import { RestBodyError } from "./request.ts";

const INTERNAL = restError("rest_internal_error");

const BY_FASTIFY_CODE: Record<string, RestErrorBody> = {
  FST_ERR_CTP_INVALID_JSON_BODY: restError("rest_invalid_json"),
  FST_ERR_CTP_BODY_TOO_LARGE: restError("rest_payload_too_large"),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: restError("rest_unsupported_media_type", {
    expected: "JSON (application/json) or form-encoded (application/x-www-form-urlencoded)",
  }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: restError("rest_invalid_content_length"),
  FST_ERR_BAD_URL: restError("rest_invalid_url"),
};

/** Plugins (the rate limit) throw ready-made envelopes. */
function isRestErrorBody(error: object): error is RestErrorBody {
  const { code, message, data } = error as Partial<RestErrorBody>;
  return typeof code === "string" && typeof message === "string" && typeof data?.status === "number";
}

/** A failure raised outside the procedures (parsers, hooks), in the WordPress error shape. */
export function restErrorFromFastify(error: FastifyError | Error): RestErrorBody {
  if (isRestErrorBody(error)) return { code: error.code, message: error.message, data: error.data };
  if (error instanceof DomainError) return restErrorBody(error);
  if (error instanceof RestBodyError) return restErrorBody(domainError("rest_invalid_json").withMessage(error.message));
  if (error instanceof SyntaxError) return BY_FASTIFY_CODE.FST_ERR_CTP_INVALID_JSON_BODY as RestErrorBody;
  const code = "code" in error ? error.code : undefined;
  const known = code ? BY_FASTIFY_CODE[code] : undefined;
  if (known) return known;
  const status = "statusCode" in error ? error.statusCode : undefined;
  if (status !== undefined && status >= 400 && status < 500) {
    return restErrorBody(domainError("rest_bad_request", { reason: error.message }), status);
  }
  return INTERNAL;
}

export function sendRestError(reply: FastifyReply, body: RestErrorBody): FastifyReply {
  return reply.code(body.data.status).type("application/json; charset=utf-8").send(body);
}

/** Fastify error handler of the REST scopes: nothing leaves as a stack trace or a non-WordPress body. */
export function handleRestError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const body = restErrorFromFastify(error);
  if (body.data.status >= 500) request.log.error({ err: error }, "request failed");
  return sendRestError(reply, body);
}

/**
 * The status of a procedure's error, for trpc-to-openapi's and tRPC's `responseMeta`: the one the error formatter
 * puts in the body for the same transport (an id that does not parse is a 404 on REST, a 400 over tRPC).
 */
export function statusOfTrpcErrors(
  errors: Parameters<typeof toDomainError>[0][],
  transport: Transport,
): number | undefined {
  const [first] = errors;
  return first ? toDomainError(first, undefined, transport).status : undefined;
}

/** Logs unexpected procedure failures (client errors are not logged as errors). */
export function logProcedureError({
  error,
  req,
}: {
  error: Parameters<typeof toDomainError>[0];
  req: { log?: { error: (obj: object, msg: string) => void } };
}): void {
  if (toDomainError(error, undefined, "rest").status >= 500) req.log?.error({ err: error }, "procedure failed");
}

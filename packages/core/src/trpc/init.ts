import { initTRPC } from "@trpc/server";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { withUnchangedRecords } from "../changes/change.record.ts";
import { DomainError } from "../errors.ts";
import type { Context } from "./context.ts";
import { asTrpcError, domainErrorData, toDomainError, trpcCodeForStatus } from "./domain-error.ts";
import { rejectNulCharacters } from "./nul-characters.ts";
import type { ProcedureMeta } from "./operation.ts";

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // No stack trace is ever sent (see below), so tRPC need not render one for every error.
    isDev: false,
    errorFormatter({ shape, error, input, ctx }) {
      const domain = toDomainError(error, input, ctx?.rest ? "rest" : "trpc");
      // Never send a stack trace, in any environment.
      const { stack: _stack, ...data } = shape.data;
      // The tRPC code and status follow the domain error (a database outage is a 503, not a 500).
      const code = trpcCodeForStatus(domain.status);
      return {
        ...shape,
        code: TRPC_ERROR_CODES_BY_KEY[code],
        message: domain.message,
        data: { ...data, code, httpStatus: domain.status, domain: domainErrorData(domain) },
      };
    },
  });

export const router = t.router;
export const mergeRouters = t.mergeRouters;
export const createCallerFactory = t.createCallerFactory;

/** Path parameters reach the procedure as the REST transport decodes them (see `RestTransport.decodePathParams`). */
const decodePathParams = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  const path = meta?.openapi?.path;
  const rest = ctx.rest;
  if (!rest || !path?.includes("{")) return next();
  return next({ getRawInput: async () => rest.decodePathParams(await getRawInput(), path) });
});

/** Domain errors leave a procedure as TRPCErrors whose code matches their HTTP status. */
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) throw asTrpcError(result.error.cause);
  return result;
});

/** Input with U+0000 is a 400 naming the parameter, before any query sees it. */
const rejectNulInput = t.middleware(async ({ getRawInput, next }) => {
  rejectNulCharacters(await getRawInput());
  return next();
});

/** A mutation whose request carried write preconditions runs with them, up to the transaction of its write. */
const keepPreconditions = t.middleware(({ ctx, type, next }) => {
  const records = ctx.unchangedRecords;
  return type === "mutation" && records && records.length > 0 ? withUnchangedRecords(records, next) : next();
});

/** Every procedure of the API: reads are public; writes check capabilities in their services. */
export const publicProcedure = t.procedure
  .use(mapDomainErrors)
  .use(decodePathParams)
  .use(rejectNulInput)
  .use(keepPreconditions);

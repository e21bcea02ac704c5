import type { Context, DbHandle, Site } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { fastifyTRPCOpenApiPlugin } from "trpc-to-openapi";
import { actorFromAuthorization } from "../auth.ts";
import { serveHeadAsGet } from "../http/head.ts";
import { resolveWithReply } from "../http/reply-until-sent.ts";
import { unchangedRecordsOf } from "../http/write-preconditions.ts";
import { chargeEventsOf } from "../protection.ts";
import { type RestBase, requestOrigin, SERVED_BASES } from "./base-paths.ts";
import { reshapeErrorPayload } from "./envelope.ts";
import { logProcedureError, statusOfTrpcErrors } from "./errors.ts";
import { refuseListsForScalars, scalarQueryParameters } from "./query-scalars.ts";
import { keepEmptyQueryValues, registerRestRequestHandling } from "./request.ts";
import { RestAnswer } from "./rest-answer.ts";

export interface RestPluginOptions {
  router: AnyTRPCRouter;
  handle: DbHandle;
  site: Site;
}

/** The context of a REST request under `base`: the caller its Authorization header names, links from its origin. */
export async function restContext(
  request: FastifyRequest,
  base: RestBase,
  options: Pick<RestPluginOptions, "handle" | "site">,
  rest: Context["rest"] = new RestAnswer(),
): Promise<Context> {
  const { db, provider } = options.handle;
  return {
    db,
    provider,
    site: options.site,
    actor: await actorFromAuthorization(db, request.headers.authorization),
    pathLanguage: base.language,
    apiRoot: `${requestOrigin(request)}${base.path}`,
    rest,
    unchangedRecords: unchangedRecordsOf(request),
    chargeEvents: chargeEventsOf(request),
  };
}

/** The REST surface: one trpc-to-openapi registration per base path (the language comes from the base). */
export async function restPlugin(app: FastifyInstance, options: RestPluginOptions): Promise<void> {
  registerRestRequestHandling(app);
  app.addHook("onSend", async (_request, reply, payload) =>
    reply.statusCode >= 400 && typeof payload === "string" ? reshapeErrorPayload(payload) : payload,
  );
  // Only the procedures need empty query values kept; the discovery routes read the query as parsed.
  await app.register(async (procedures) => {
    const scalars = scalarQueryParameters(options.router);
    procedures.addHook("preHandler", async (request) => {
      refuseListsForScalars(request, scalars);
      keepEmptyQueryValues(request);
    });
    serveHeadAsGet(procedures);
    resolveWithReply(procedures);
    for (const base of SERVED_BASES) {
      await procedures.register(fastifyTRPCOpenApiPlugin, {
        basePath: base.path,
        router: options.router,
        createContext: ({ req }: { req: FastifyRequest }) => restContext(req, base, options),
        responseMeta: ({ ctx, errors }: { ctx?: Context; errors: Parameters<typeof statusOfTrpcErrors>[0] }) => {
          const status = statusOfTrpcErrors(errors, "rest");
          if (status !== undefined) return { status };
          const answer = ctx?.rest instanceof RestAnswer ? ctx.rest : undefined;
          return { status: answer?.status ?? 200, headers: answer?.headers ?? {} };
        },
        onError: logProcedureError,
      });
    }
  });
}

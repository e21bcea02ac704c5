import type { Actor, Context, DbHandle, Site, UnchangedSince } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import { fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import type { TRPCRequestInfo } from "@trpc/server/http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { actorFromAuthorization } from "../auth.ts";
import { changeVersionReader } from "../http/change-version.reader.ts";
import { itemReadResolver } from "../http/write-preconditions.ts";
import { chargeEventsOf } from "../protection.ts";
import { API_PATH, requestOrigin } from "../rest/base-paths.ts";
import { logProcedureError, statusOfTrpcErrors } from "../rest/errors.ts";
import { depthLimitedJsonParser } from "../rest/request.ts";
import { answerGetQueriesFirst } from "./get-queries.ts";
import { checkTrpcWritePreconditions } from "./write-preconditions.ts";

export interface TrpcPluginOptions {
  router: AnyTRPCRouter;
  handle: DbHandle;
  site: Site;
  /** GET queries answered without tRPC's Fetch-API round trip (see `answerGetQueriesFirst`). */
  getQueriesFirst: boolean;
}

/** The tRPC transport at /trpc: same procedures, same context, tRPC's own envelope. */
export async function trpcPlugin(app: FastifyInstance, options: TrpcPluginOptions): Promise<void> {
  const { db, provider } = options.handle;
  const checks = { readVersion: changeVersionReader(db), itemReadOf: itemReadResolver(options.router) };
  const contextOf = (req: FastifyRequest, actor: Actor, unchangedRecords: UnchangedSince[]): Context => ({
    db,
    provider,
    site: options.site,
    actor,
    pathLanguage: null,
    apiRoot: `${requestOrigin(req)}${API_PATH}`,
    rest: null,
    unchangedRecords,
    chargeEvents: chargeEventsOf(req),
  });
  const responseMeta = ({ errors }: { errors: Parameters<typeof statusOfTrpcErrors>[0] }) => {
    const status = statusOfTrpcErrors(errors, "trpc");
    return status === undefined ? {} : { status };
  };
  if (options.getQueriesFirst) {
    answerGetQueriesFirst(app, {
      router: options.router,
      contextOf: async (req) => contextOf(req, await actorFromAuthorization(db, req.headers.authorization), []),
      responseMeta,
      onError: logProcedureError,
    });
  }
  app.addContentTypeParser("application/json", { parseAs: "string" }, depthLimitedJsonParser(app));
  await app.register(fastifyTRPCPlugin, {
    prefix: "/trpc",
    trpcOptions: {
      router: options.router,
      // Credentials first: wrong ones are a 401 (counted by the failed-authentication limit), never a 412.
      createContext: async ({ req, info }: { req: FastifyRequest; info: TRPCRequestInfo }) => {
        const actor = await actorFromAuthorization(db, req.headers.authorization);
        return contextOf(req, actor, await checkTrpcWritePreconditions(req.server, options.router, req, info, checks));
      },
      responseMeta,
      onError: logProcedureError,
    },
  });
}

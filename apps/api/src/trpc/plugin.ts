import type { Context, DbHandle, Site } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import { fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import type { TRPCRequestInfo } from "@trpc/server/http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { actorFromAuthorization } from "../auth.ts";
import { changeVersionReader } from "../http/change-version.reader.ts";
import { itemReadResolver } from "../http/write-preconditions.ts";
import { API_PATH, requestOrigin } from "../rest/base-paths.ts";
import { logProcedureError, statusOfTrpcErrors } from "../rest/errors.ts";
import { depthLimitedJsonParser } from "../rest/request.ts";
import { checkTrpcWritePreconditions } from "./write-preconditions.ts";

export interface TrpcPluginOptions {
  router: AnyTRPCRouter;
  handle: DbHandle;
  site: Site;
}

/** The tRPC transport at /trpc: same procedures, same context, tRPC's own envelope. */
export async function trpcPlugin(app: FastifyInstance, options: TrpcPluginOptions): Promise<void> {
  const { db, provider } = options.handle;
  const checks = { readVersion: changeVersionReader(db), itemReadOf: itemReadResolver(options.router) };
  app.addContentTypeParser("application/json", { parseAs: "string" }, depthLimitedJsonParser(app));
  await app.register(fastifyTRPCPlugin, {
    prefix: "/trpc",
    trpcOptions: {
      router: options.router,
      createContext: async ({ req, info }: { req: FastifyRequest; info: TRPCRequestInfo }): Promise<Context> => {
        const unchangedRecords = await checkTrpcWritePreconditions(req.server, options.router, req, info, checks);
        return {
          db,
          provider,
          site: options.site,
          actor: await actorFromAuthorization(db, req.headers.authorization),
          pathLanguage: null,
          apiRoot: `${requestOrigin(req)}${API_PATH}`,
          rest: null,
          unchangedRecords,
        };
      },
      responseMeta: ({ errors }: { errors: Parameters<typeof statusOfTrpcErrors>[0] }) => {
        const status = statusOfTrpcErrors(errors, "trpc");
        return status === undefined ? {} : { status };
      },
      onError: logProcedureError,
    },
  });
}

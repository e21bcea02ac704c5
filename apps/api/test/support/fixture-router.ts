import {
  domainError,
  idList,
  mergeRouters,
  mlLanguage,
  page,
  pathId,
  perPage,
  positiveId,
  publicProcedure,
  router,
  scopeOf,
  setListHeaders,
  setRestStatus,
  wpBoolean,
} from "@calendar/core";
import { z } from "zod";

/**
 * A small router that echoes what the REST adapter delivered, to test the adapter (query keys, booleans, bodies,
 * statuses, headers, errors) independently of any calendar resource.
 */
const listInput = z.object({
  ids: idList.optional(),
  flag: wpBoolean.optional(),
  page,
  per_page: perPage,
  ml_language: mlLanguage,
});
const echo = z.record(z.string(), z.unknown());
const itemPath = "/things/{id}";
const updateInput = z.object({ id: pathId, title: z.string().optional(), ml_language: mlLanguage });
const update = (method: "POST" | "PUT" | "PATCH") =>
  publicProcedure
    .meta({ openapi: { method, path: itemPath, protect: false } })
    .input(updateInput)
    .output(echo)
    .mutation(({ input }) => ({ ...input, method }));

export const fixtureAppRouter = router({
  things: router({
    list: publicProcedure
      .meta({ openapi: { method: "GET", path: "/things", protect: false }, http: { cache: "body", record: null } })
      .input(listInput)
      .output(echo)
      .query(({ ctx, input }) => {
        setListHeaders(ctx, { total: 12, total_pages: 2 });
        return { ...input, language: scopeOf(ctx, input.ml_language).language, apiRoot: ctx.apiRoot };
      }),
    create: publicProcedure
      .meta({ openapi: { method: "POST", path: "/things", protect: false } })
      .input(
        z.object({
          title: z.string().min(1),
          start: z.string(),
          count: positiveId.optional(),
          tags: idList.optional(),
          flag: wpBoolean.optional(),
          nested: z.object({ name: z.string() }).optional(),
          ml_language: mlLanguage,
        }),
      )
      .output(echo)
      .mutation(({ ctx, input }) => {
        setRestStatus(ctx, 201);
        return input;
      }),
    get: publicProcedure
      .meta({ openapi: { method: "GET", path: itemPath, protect: false }, http: { cache: "body", record: null } })
      .input(z.object({ id: pathId, ml_language: mlLanguage }))
      .output(echo)
      .query(({ input }) => {
        if (input.id === 404) throw domainError("rest-event-not-found", { id: 404 });
        return input;
      }),
    getBySlug: publicProcedure
      .meta({
        openapi: { method: "GET", path: "/things/by-slug/{slug}", protect: false },
        http: { cache: "body", record: null },
      })
      .input(z.object({ slug: z.string().min(1), ml_language: mlLanguage }))
      .output(echo)
      .query(({ input }) => input),
    update: update("POST"),
    delete: publicProcedure
      .meta({ openapi: { method: "DELETE", path: itemPath, protect: false } })
      .input(z.object({ id: pathId, force: wpBoolean.optional(), ml_language: mlLanguage }))
      .output(echo)
      .mutation(({ input }) => input),
    whoami: publicProcedure
      .meta({ openapi: { method: "GET", path: "/whoami", protect: false }, http: { cache: "body", record: null } })
      .input(z.object({ ml_language: mlLanguage }))
      .output(echo)
      .query(({ ctx }) => ({ actor: ctx.actor })),
    crash: publicProcedure
      .meta({ openapi: { method: "GET", path: "/crash", protect: false }, http: { cache: "body", record: null } })
      .input(z.object({ ml_language: mlLanguage }))
      .output(echo)
      .query(() => {
        throw new Error("secret internal detail");
      }),
  }),
});

export const fixtureRestRouter = mergeRouters(
  fixtureAppRouter,
  router({ rest: router({ things: router({ updatePut: update("PUT"), updatePatch: update("PATCH") }) }) }),
);

export const fixtureRouters = { app: fixtureAppRouter, rest: fixtureRestRouter };

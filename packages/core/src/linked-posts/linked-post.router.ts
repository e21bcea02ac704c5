import type { OpenApiMethod } from "trpc-to-openapi";
import { z } from "zod";
import { type Language, mlLanguage } from "../shared/language.ts";
import { pathId } from "../shared/query.ts";
import { type Context, type Scope, scopeOf, setLastModified, setListHeaders, setRestStatus } from "../trpc/context.ts";
import { publicProcedure, router } from "../trpc/init.ts";
import {
  forceQuery,
  type LinkedPostListQuery,
  type LinkedPostWriteFields,
  linkedPostListQuery,
  passwordQuery,
} from "./linked-post.schemas.ts";
import type { LinkedPostTarget } from "./linked-post.service.ts";

/** The procedures of venues and organizers, built once for both. */

/** The `{slug}` of a by-slug path (any characters but `/`, already percent-decoded). */
const slugParam = z.string().min(1).max(1_000).meta({ description: "URL name of the item." });

const itemByIdInput = z.object({ id: pathId, ml_language: mlLanguage });
const itemBySlugInput = z.object({ slug: slugParam, ml_language: mlLanguage });

const getByIdInput = itemByIdInput.extend({ password: passwordQuery });
const getBySlugInput = itemBySlugInput.extend({ password: passwordQuery });
const deleteByIdInput = itemByIdInput.extend({ force: forceQuery });
const deleteBySlugInput = itemBySlugInput.extend({ force: forceQuery });

/** The write inputs of a kind: its bodies with the language, the id or the slug. */
export function linkedPostWriteInputs<C extends z.ZodRawShape, U extends z.ZodRawShape>(
  createBody: z.ZodObject<C>,
  updateBody: z.ZodObject<U>,
) {
  return {
    create: createBody.extend({ ml_language: mlLanguage }),
    updateById: updateBody.extend(itemByIdInput.shape),
    // On a by-slug path `slug` names the record, so such an update cannot rename it (the id path can).
    updateBySlug: updateBody.extend(itemBySlugInput.shape),
  };
}

type UpdateMethod = Extract<OpenApiMethod, "POST" | "PUT" | "PATCH">;

const READ_ERRORS = { 400: "Invalid parameter, or no such item", 403: "Not accessible to the requester" };
const WRITE_ERRORS = {
  400: "Invalid or missing parameter, or no such item",
  401: "Authentication required",
  403: "Not allowed for this user",
};

/** The OpenAPI metadata of every operation of `/venues` or `/organizers`. */
function linkedPostMeta<P extends "venues" | "organizers">(singular: "venue" | "organizer", plural: P) {
  const collection = `/${plural}` as const;
  const item = `/${plural}/{id}` as const;
  const bySlug = `/${plural}/by-slug/{slug}` as const;
  const tags = [plural];
  const passwordNote =
    "A password-protected one shows only its name unless `password` is given or the requester may edit it.";
  const update = (method: UpdateMethod, path: typeof item | typeof bySlug, by: string) => ({
    openapi: {
      method,
      path,
      tags,
      summary: `Update a ${singular} ${by}`,
      description: `Changes only the fields sent; \`""\` clears an optional field.`,
      protect: true,
      errorResponses: WRITE_ERRORS,
    },
  });
  const remove = (path: typeof item | typeof bySlug, by: string) => ({
    openapi: {
      method: "DELETE" as const,
      path,
      tags,
      summary: `Delete a ${singular} ${by}`,
      description: `Moves it to the trash (a second DELETE: 410) and unlinks it from every event; \`force=true\` (administrators) deletes it permanently.`,
      protect: true,
      errorResponses: { ...WRITE_ERRORS, 410: "Already in the trash" },
    },
  });
  return {
    list: {
      openapi: {
        method: "GET" as const,
        path: collection,
        tags,
        summary: `List ${plural}`,
        description: `Newest first, in the request's language. ${passwordNote}`,
        protect: false,
        errorResponses: { 400: "Invalid parameter", 404: "Page past the end" },
      },
    },
    create: {
      openapi: {
        method: "POST" as const,
        path: collection,
        tags,
        summary: `Create a ${singular}`,
        description: `A ${singular} with the same name (and the same description, when one is sent) is returned instead of a new one, updated with the fields sent.`,
        protect: true,
        errorResponses: WRITE_ERRORS,
      },
    },
    get: {
      openapi: {
        method: "GET" as const,
        path: item,
        tags,
        summary: `Get a ${singular}`,
        description: `With its schema.org JSON-LD. ${passwordNote}`,
        protect: false,
        errorResponses: READ_ERRORS,
      },
    },
    getBySlug: {
      openapi: {
        method: "GET" as const,
        path: bySlug,
        tags,
        summary: `Get a ${singular} by slug`,
        description: `The slug is looked up in the request's language. ${passwordNote}`,
        protect: false,
        errorResponses: READ_ERRORS,
      },
    },
    update: (method: UpdateMethod) => update(method, item, "by id"),
    updateBySlug: (method: UpdateMethod) => update(method, bySlug, "by slug"),
    delete: remove(item, "by id"),
    deleteBySlug: remove(bySlug, "by slug"),
  };
}

type WithLanguage = { ml_language?: Language | undefined };
type WriteInput = LinkedPostWriteFields & WithLanguage;

/**
 * The service functions of a kind. Bodies are typed by the fields all kinds share: tRPC cannot hand a generic
 * resolver its generic input type, so the kind's own body type (`VenueCreateBody`, …) is accepted through method
 * parameter bivariance; the kind's schema has parsed exactly that type.
 */
export interface LinkedPostOperations<TOut, TList> {
  list(scope: Scope, query: LinkedPostListQuery): Promise<TList>;
  get(scope: Scope, target: LinkedPostTarget, password: string | undefined): Promise<TOut>;
  create(scope: Scope, body: LinkedPostWriteFields): Promise<TOut>;
  update(scope: Scope, target: LinkedPostTarget, body: LinkedPostWriteFields): Promise<TOut>;
  remove(scope: Scope, target: LinkedPostTarget, force: boolean): Promise<TOut>;
}

/**
 * What a kind brings. The write inputs are type parameters of their own, so that clients see each kind's exact
 * input types; the outputs are typed by what they produce, since tRPC cannot check a generic resolver's result
 * against a generic output schema (it validates every output at run time anyway).
 */
export interface LinkedPostRouterSpec<C, UI, US, TOut, TList> {
  singular: "venue" | "organizer";
  plural: "venues" | "organizers";
  inputs: { create: C; updateById: UI; updateBySlug: US };
  output: z.ZodType<TOut, unknown>;
  listOutput: z.ZodType<TList, unknown>;
  operations: LinkedPostOperations<TOut, TList>;
}

/**
 * The procedures of `/venues` or `/organizers`: `main` for both transports and `aliases`, the PUT and PATCH forms of
 * the updates (trpc-to-openapi serves one method per procedure).
 */
export function linkedPostRouters<
  C extends z.ZodType<WriteInput>,
  UI extends z.ZodType<WriteInput & { id: number }>,
  US extends z.ZodType<WriteInput & { slug: string }>,
  TOut extends { modified_utc: string },
  TList extends { total: number; total_pages: number },
>(spec: LinkedPostRouterSpec<C, UI, US, TOut, TList>) {
  const { inputs, output, operations } = spec;
  const meta = linkedPostMeta(spec.singular, spec.plural);

  const updateById = publicProcedure.input(inputs.updateById).output(output);
  const updateByIdResolver = ({ ctx, input }: { ctx: Context; input: WriteInput & { id: number } }) =>
    operations.update(scopeOf(ctx, input.ml_language), { id: input.id }, input);
  const updateBySlug = publicProcedure.input(inputs.updateBySlug).output(output);
  const updateBySlugResolver = ({ ctx, input }: { ctx: Context; input: WriteInput & { slug: string } }) =>
    operations.update(scopeOf(ctx, input.ml_language), { slug: input.slug }, { ...input, slug: undefined });

  const main = router({
    list: publicProcedure
      .meta(meta.list)
      .input(linkedPostListQuery)
      .output(spec.listOutput)
      .query(async ({ ctx, input }) => {
        const page = await operations.list(scopeOf(ctx, input.ml_language), input);
        setListHeaders(ctx, page);
        return page;
      }),
    create: publicProcedure
      .meta(meta.create)
      .input(inputs.create)
      .output(output)
      .mutation(async ({ ctx, input }: { ctx: Context; input: WriteInput }) => {
        const created = await operations.create(scopeOf(ctx, input.ml_language), input);
        setRestStatus(ctx, 201);
        return created;
      }),
    get: publicProcedure
      .meta(meta.get)
      .input(getByIdInput)
      .output(output)
      .query(async ({ ctx, input }) => {
        const item = await operations.get(scopeOf(ctx, input.ml_language), { id: input.id }, input.password);
        setLastModified(ctx, item.modified_utc);
        return item;
      }),
    getBySlug: publicProcedure
      .meta(meta.getBySlug)
      .input(getBySlugInput)
      .output(output)
      .query(async ({ ctx, input }) => {
        const item = await operations.get(scopeOf(ctx, input.ml_language), { slug: input.slug }, input.password);
        setLastModified(ctx, item.modified_utc);
        return item;
      }),
    update: updateById.meta(meta.update("POST")).mutation(updateByIdResolver),
    updateBySlug: updateBySlug.meta(meta.updateBySlug("POST")).mutation(updateBySlugResolver),
    delete: publicProcedure
      .meta(meta.delete)
      .input(deleteByIdInput)
      .output(output)
      .mutation(({ ctx, input }) =>
        operations.remove(scopeOf(ctx, input.ml_language), { id: input.id }, input.force ?? false),
      ),
    deleteBySlug: publicProcedure
      .meta(meta.deleteBySlug)
      .input(deleteBySlugInput)
      .output(output)
      .mutation(({ ctx, input }) =>
        operations.remove(scopeOf(ctx, input.ml_language), { slug: input.slug }, input.force ?? false),
      ),
  });

  const aliases = router({
    updatePut: updateById.meta(meta.update("PUT")).mutation(updateByIdResolver),
    updatePatch: updateById.meta(meta.update("PATCH")).mutation(updateByIdResolver),
    updateBySlugPut: updateBySlug.meta(meta.updateBySlug("PUT")).mutation(updateBySlugResolver),
    updateBySlugPatch: updateBySlug.meta(meta.updateBySlug("PATCH")).mutation(updateBySlugResolver),
  });

  return { main, aliases };
}

import { termListMovesWithClock } from "../terms/term.filters.ts";
import {
  TERM_READ_ERRORS,
  TERM_UPDATE_DESCRIPTION,
  TERM_WRITE_ERRORS,
  termDeleteDescription,
  termListDescription,
} from "../terms/term.inputs.ts";
import { presentTermList } from "../terms/term.present.ts";
import { type TermItemQuery, type TermUpdateBody, termItemQuery } from "../terms/term.schemas.ts";
import { createTerm, deleteTerm, getTerm, listTerms, updateTerm } from "../terms/term.service.ts";
import { type Context, scopeOf } from "../trpc/context.ts";
import { publicProcedure, router } from "../trpc/init.ts";
import { asCreated, operation, withListHeaders } from "../trpc/operation.ts";
import { categoryResource } from "./category.present.ts";
import { categorySchemas } from "./category.schemas.ts";

const TAG = "categories";
const COLLECTION = "/categories";
const ITEM = "/categories/{id}";

const update = publicProcedure.input(categorySchemas.updateBody).output(categorySchemas.item);
const updateResolver = ({ ctx, input }: { ctx: Context; input: TermUpdateBody }) =>
  updateTerm(scopeOf(ctx, input.ml_language), categoryResource, input);
const updateOperation = (method: "POST" | "PUT" | "PATCH") =>
  operation({
    method,
    path: ITEM,
    tag: TAG,
    summary: "Update a category",
    description: TERM_UPDATE_DESCRIPTION,
    errors: TERM_WRITE_ERRORS,
  });

/** `/categories` and `/categories/{id}`; `categories.*` over tRPC. */
export const categoriesRouter = router({
  list: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: COLLECTION,
        tag: TAG,
        summary: "List categories",
        description: termListDescription("categories"),
        errors: TERM_READ_ERRORS,
        cache: "version",
        movesWithClock: termListMovesWithClock,
      }),
    )
    .input(categorySchemas.listQuery)
    .output(categorySchemas.list)
    .query(async ({ ctx, input }) => {
      const page = withListHeaders(ctx, await listTerms(scopeOf(ctx, input.ml_language), categoryResource, input));
      return presentTermList(TAG, page);
    }),
  create: publicProcedure
    .meta(
      operation({
        method: "POST",
        path: COLLECTION,
        tag: TAG,
        summary: "Create a category",
        description: "Creates a category in the request's language.",
        errors: TERM_WRITE_ERRORS,
      }),
    )
    .input(categorySchemas.createBody)
    .output(categorySchemas.item)
    .mutation(async ({ ctx, input }) =>
      asCreated(ctx, await createTerm(scopeOf(ctx, input.ml_language), categoryResource, input)),
    ),
  get: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: ITEM,
        tag: TAG,
        summary: "Get a category",
        description: "A category by id, in any language.",
        errors: TERM_READ_ERRORS,
        cache: "body",
        record: "category",
      }),
    )
    .input(termItemQuery)
    .output(categorySchemas.item)
    .query(({ ctx, input }: { ctx: Context; input: TermItemQuery }) =>
      getTerm(scopeOf(ctx, input.ml_language), categoryResource, input.id),
    ),
  update: update.meta(updateOperation("POST")).mutation(updateResolver),
  delete: publicProcedure
    .meta(
      operation({
        method: "DELETE",
        path: ITEM,
        tag: TAG,
        summary: "Delete a category",
        description: termDeleteDescription("category"),
        errors: TERM_WRITE_ERRORS,
      }),
    )
    .input(termItemQuery)
    .output(categorySchemas.item)
    .mutation(({ ctx, input }) => deleteTerm(scopeOf(ctx, input.ml_language), categoryResource, input.id)),
});

/** The PUT and PATCH forms of `categories.update` (REST only: trpc-to-openapi serves one method per procedure). */
export const categoriesRestAliases = router({
  updatePut: update.meta(updateOperation("PUT")).mutation(updateResolver),
  updatePatch: update.meta(updateOperation("PATCH")).mutation(updateResolver),
});

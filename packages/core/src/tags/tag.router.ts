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
import { tagResource } from "./tag.present.ts";
import { tagSchemas } from "./tag.schemas.ts";

const TAG = "tags";
const COLLECTION = "/tags";
const ITEM = "/tags/{id}";

const update = publicProcedure.input(tagSchemas.updateBody).output(tagSchemas.item);
const updateResolver = ({ ctx, input }: { ctx: Context; input: TermUpdateBody }) =>
  updateTerm(scopeOf(ctx, input.ml_language), tagResource, input);
const updateOperation = (method: "POST" | "PUT" | "PATCH") =>
  operation({
    method,
    path: ITEM,
    tag: TAG,
    summary: "Update a tag",
    description: TERM_UPDATE_DESCRIPTION,
    errors: TERM_WRITE_ERRORS,
  });

/** `/tags` and `/tags/{id}`; `tags.*` over tRPC. */
export const tagsRouter = router({
  list: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: COLLECTION,
        tag: TAG,
        summary: "List tags",
        description: termListDescription("tags"),
        errors: TERM_READ_ERRORS,
        cache: "version",
        movesWithClock: termListMovesWithClock,
      }),
    )
    .input(tagSchemas.listQuery)
    .output(tagSchemas.list)
    .query(async ({ ctx, input }) => {
      const page = withListHeaders(ctx, await listTerms(scopeOf(ctx, input.ml_language), tagResource, input));
      return presentTermList(TAG, page);
    }),
  create: publicProcedure
    .meta(
      operation({
        method: "POST",
        path: COLLECTION,
        tag: TAG,
        summary: "Create a tag",
        description: "Creates a tag in the request's language.",
        errors: TERM_WRITE_ERRORS,
      }),
    )
    .input(tagSchemas.createBody)
    .output(tagSchemas.item)
    .mutation(async ({ ctx, input }) =>
      asCreated(ctx, await createTerm(scopeOf(ctx, input.ml_language), tagResource, input)),
    ),
  get: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: ITEM,
        tag: TAG,
        summary: "Get a tag",
        description: "A tag by id, in any language.",
        errors: TERM_READ_ERRORS,
        cache: "body",
        record: "tag",
      }),
    )
    .input(termItemQuery)
    .output(tagSchemas.item)
    .query(({ ctx, input }: { ctx: Context; input: TermItemQuery }) =>
      getTerm(scopeOf(ctx, input.ml_language), tagResource, input.id),
    ),
  update: update.meta(updateOperation("POST")).mutation(updateResolver),
  delete: publicProcedure
    .meta(
      operation({
        method: "DELETE",
        path: ITEM,
        tag: TAG,
        summary: "Delete a tag",
        description: termDeleteDescription("tag"),
        errors: TERM_WRITE_ERRORS,
      }),
    )
    .input(termItemQuery)
    .output(tagSchemas.item)
    .mutation(({ ctx, input }) => deleteTerm(scopeOf(ctx, input.ml_language), tagResource, input.id)),
});

/** The PUT and PATCH forms of `tags.update` (REST only: trpc-to-openapi serves one method per procedure). */
export const tagsRestAliases = router({
  updatePut: update.meta(updateOperation("PUT")).mutation(updateResolver),
  updatePatch: update.meta(updateOperation("PATCH")).mutation(updateResolver),
});

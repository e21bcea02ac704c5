import type { z } from "zod";
import { linkedPostListMovesWithClock } from "../linked-posts/linked-post.filters.ts";
import {
  byId,
  bySlug,
  DELETE_ERRORS,
  LIST_ERRORS,
  linkedPostDeleteBySlugInput,
  linkedPostDeleteInput,
  linkedPostGetBySlugInput,
  linkedPostGetInput,
  PASSWORD_NOTE,
  READ_ERRORS,
  UPDATE_DESCRIPTION,
  WRITE_ERRORS,
  withLanguage,
} from "../linked-posts/linked-post.inputs.ts";
import { linkedPostListQuery } from "../linked-posts/linked-post.schemas.ts";
import { type Context, scopeOf } from "../trpc/context.ts";
import { publicProcedure, router } from "../trpc/init.ts";
import { asCreated, operation, withLastModified, withListHeaders } from "../trpc/operation.ts";
import { venueCreateBody, venueListOutput, venueOutput, venueUpdateBody } from "./venue.schemas.ts";
import { createVenue, deleteVenue, getVenue, listVenues, updateVenue } from "./venue.service.ts";

const TAG = "venues";
const DELETE_DESCRIPTION =
  "Moves it to the trash (a second DELETE: 410) and unlinks it from every event; `force=true` (administrators) deletes it permanently.";
const COLLECTION = "/venues";
const ITEM = "/venues/{id}";
const BY_SLUG = "/venues/by-slug/{slug}";

const venueCreateInput = withLanguage(venueCreateBody);
const venueUpdateInput = byId(venueUpdateBody);
const venueUpdateBySlugInput = bySlug(venueUpdateBody);

const update = publicProcedure.input(venueUpdateInput).output(venueOutput);
const updateResolver = ({ ctx, input }: { ctx: Context; input: z.output<typeof venueUpdateInput> }) =>
  updateVenue(scopeOf(ctx, input.ml_language), { id: input.id }, input);
const updateBySlug = publicProcedure.input(venueUpdateBySlugInput).output(venueOutput);
const updateBySlugResolver = ({ ctx, input }: { ctx: Context; input: z.output<typeof venueUpdateBySlugInput> }) =>
  updateVenue(scopeOf(ctx, input.ml_language), { slug: input.slug }, { ...input, slug: undefined });

const updateOperation = (method: "POST" | "PUT" | "PATCH") =>
  operation({
    method,
    path: ITEM,
    tag: TAG,
    summary: "Update a venue by id",
    description: UPDATE_DESCRIPTION,
    errors: WRITE_ERRORS,
  });
const updateBySlugOperation = (method: "POST" | "PUT" | "PATCH") =>
  operation({
    method,
    path: BY_SLUG,
    tag: TAG,
    summary: "Update a venue by slug",
    description: UPDATE_DESCRIPTION,
    errors: WRITE_ERRORS,
  });

/** `/venues`, `/venues/{id}` and `/venues/by-slug/{slug}`; `venues.*` over tRPC. */
export const venuesRouter = router({
  list: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: COLLECTION,
        tag: TAG,
        summary: "List venues",
        description: `Newest first, in the request's language. ${PASSWORD_NOTE}`,
        errors: LIST_ERRORS,
        cache: "version",
        movesWithClock: linkedPostListMovesWithClock,
      }),
    )
    .input(linkedPostListQuery)
    .output(venueListOutput)
    .query(async ({ ctx, input }) => withListHeaders(ctx, await listVenues(scopeOf(ctx, input.ml_language), input))),
  create: publicProcedure
    .meta(
      operation({
        method: "POST",
        path: COLLECTION,
        tag: TAG,
        summary: "Create a venue",
        description:
          "A venue with the same name (and the same description, when one is sent) is returned instead of a new one, updated with the fields sent.",
        errors: WRITE_ERRORS,
      }),
    )
    .input(venueCreateInput)
    .output(venueOutput)
    .mutation(async ({ ctx, input }) => asCreated(ctx, await createVenue(scopeOf(ctx, input.ml_language), input))),
  get: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: ITEM,
        tag: TAG,
        summary: "Get a venue",
        description: `With its schema.org JSON-LD. ${PASSWORD_NOTE}`,
        errors: READ_ERRORS,
        cache: "body",
        record: "venue",
      }),
    )
    .input(linkedPostGetInput)
    .output(venueOutput)
    .query(async ({ ctx, input }) =>
      withLastModified(ctx, await getVenue(scopeOf(ctx, input.ml_language), { id: input.id }, input.password)),
    ),
  getBySlug: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: BY_SLUG,
        tag: TAG,
        summary: "Get a venue by slug",
        description: `The slug is looked up in the request's language. ${PASSWORD_NOTE}`,
        errors: READ_ERRORS,
        cache: "body",
        record: "venue",
      }),
    )
    .input(linkedPostGetBySlugInput)
    .output(venueOutput)
    .query(async ({ ctx, input }) =>
      withLastModified(ctx, await getVenue(scopeOf(ctx, input.ml_language), { slug: input.slug }, input.password)),
    ),
  update: update.meta(updateOperation("POST")).mutation(updateResolver),
  updateBySlug: updateBySlug.meta(updateBySlugOperation("POST")).mutation(updateBySlugResolver),
  delete: publicProcedure
    .meta(
      operation({
        method: "DELETE",
        path: ITEM,
        tag: TAG,
        summary: "Delete a venue by id",
        description: DELETE_DESCRIPTION,
        errors: DELETE_ERRORS,
      }),
    )
    .input(linkedPostDeleteInput)
    .output(venueOutput)
    .mutation(({ ctx, input }) => deleteVenue(scopeOf(ctx, input.ml_language), { id: input.id }, input.force ?? false)),
  deleteBySlug: publicProcedure
    .meta(
      operation({
        method: "DELETE",
        path: BY_SLUG,
        tag: TAG,
        summary: "Delete a venue by slug",
        description: DELETE_DESCRIPTION,
        errors: DELETE_ERRORS,
      }),
    )
    .input(linkedPostDeleteBySlugInput)
    .output(venueOutput)
    .mutation(({ ctx, input }) =>
      deleteVenue(scopeOf(ctx, input.ml_language), { slug: input.slug }, input.force ?? false),
    ),
});

/** The PUT and PATCH forms of the venue updates (REST only: trpc-to-openapi serves one method per procedure). */
export const venuesRestAliases = router({
  updatePut: update.meta(updateOperation("PUT")).mutation(updateResolver),
  updatePatch: update.meta(updateOperation("PATCH")).mutation(updateResolver),
  updateBySlugPut: updateBySlug.meta(updateBySlugOperation("PUT")).mutation(updateBySlugResolver),
  updateBySlugPatch: updateBySlug.meta(updateBySlugOperation("PATCH")).mutation(updateBySlugResolver),
});

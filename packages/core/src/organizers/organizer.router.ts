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
import { organizerCreateBody, organizerListOutput, organizerOutput, organizerUpdateBody } from "./organizer.schemas.ts";
import {
  createOrganizer,
  deleteOrganizer,
  getOrganizer,
  listOrganizers,
  updateOrganizer,
} from "./organizer.service.ts";

const TAG = "organizers";
const DELETE_DESCRIPTION =
  "Moves it to the trash (a second DELETE: 410) and unlinks it from every event; `force=true` (administrators) deletes it permanently.";
const COLLECTION = "/organizers";
const ITEM = "/organizers/{id}";
const BY_SLUG = "/organizers/by-slug/{slug}";

const organizerCreateInput = withLanguage(organizerCreateBody);
const organizerUpdateInput = byId(organizerUpdateBody);
const organizerUpdateBySlugInput = bySlug(organizerUpdateBody);

const update = publicProcedure.input(organizerUpdateInput).output(organizerOutput);
const updateResolver = ({ ctx, input }: { ctx: Context; input: z.output<typeof organizerUpdateInput> }) =>
  updateOrganizer(scopeOf(ctx, input.ml_language), { id: input.id }, input);
const updateBySlug = publicProcedure.input(organizerUpdateBySlugInput).output(organizerOutput);
const updateBySlugResolver = ({ ctx, input }: { ctx: Context; input: z.output<typeof organizerUpdateBySlugInput> }) =>
  updateOrganizer(scopeOf(ctx, input.ml_language), { slug: input.slug }, { ...input, slug: undefined });

const updateOperation = (method: "POST" | "PUT" | "PATCH") =>
  operation({
    method,
    path: ITEM,
    tag: TAG,
    summary: "Update an organizer by id",
    description: UPDATE_DESCRIPTION,
    errors: WRITE_ERRORS,
  });
const updateBySlugOperation = (method: "POST" | "PUT" | "PATCH") =>
  operation({
    method,
    path: BY_SLUG,
    tag: TAG,
    summary: "Update an organizer by slug",
    description: UPDATE_DESCRIPTION,
    errors: WRITE_ERRORS,
  });

/** `/organizers`, `/organizers/{id}` and `/organizers/by-slug/{slug}`; `organizers.*` over tRPC. */
export const organizersRouter = router({
  list: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: COLLECTION,
        tag: TAG,
        summary: "List organizers",
        description: `Newest first, in the request's language. ${PASSWORD_NOTE}`,
        errors: LIST_ERRORS,
        cache: "version",
        movesWithClock: linkedPostListMovesWithClock,
      }),
    )
    .input(linkedPostListQuery)
    .output(organizerListOutput)
    .query(async ({ ctx, input }) =>
      withListHeaders(ctx, await listOrganizers(scopeOf(ctx, input.ml_language), input)),
    ),
  create: publicProcedure
    .meta(
      operation({
        method: "POST",
        path: COLLECTION,
        tag: TAG,
        summary: "Create an organizer",
        description:
          "An organizer with the same name (and the same description, when one is sent) is returned instead of a new one, updated with the fields sent.",
        errors: WRITE_ERRORS,
      }),
    )
    .input(organizerCreateInput)
    .output(organizerOutput)
    .mutation(async ({ ctx, input }) => asCreated(ctx, await createOrganizer(scopeOf(ctx, input.ml_language), input))),
  get: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: ITEM,
        tag: TAG,
        summary: "Get an organizer",
        description: `With its schema.org JSON-LD. ${PASSWORD_NOTE}`,
        errors: READ_ERRORS,
        cache: "body",
        record: "organizer",
      }),
    )
    .input(linkedPostGetInput)
    .output(organizerOutput)
    .query(async ({ ctx, input }) =>
      withLastModified(ctx, await getOrganizer(scopeOf(ctx, input.ml_language), { id: input.id }, input.password)),
    ),
  getBySlug: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: BY_SLUG,
        tag: TAG,
        summary: "Get an organizer by slug",
        description: `The slug is looked up in the request's language. ${PASSWORD_NOTE}`,
        errors: READ_ERRORS,
        cache: "body",
        record: "organizer",
      }),
    )
    .input(linkedPostGetBySlugInput)
    .output(organizerOutput)
    .query(async ({ ctx, input }) =>
      withLastModified(ctx, await getOrganizer(scopeOf(ctx, input.ml_language), { slug: input.slug }, input.password)),
    ),
  update: update.meta(updateOperation("POST")).mutation(updateResolver),
  updateBySlug: updateBySlug.meta(updateBySlugOperation("POST")).mutation(updateBySlugResolver),
  delete: publicProcedure
    .meta(
      operation({
        method: "DELETE",
        path: ITEM,
        tag: TAG,
        summary: "Delete an organizer by id",
        description: DELETE_DESCRIPTION,
        errors: DELETE_ERRORS,
      }),
    )
    .input(linkedPostDeleteInput)
    .output(organizerOutput)
    .mutation(({ ctx, input }) =>
      deleteOrganizer(scopeOf(ctx, input.ml_language), { id: input.id }, input.force ?? false),
    ),
  deleteBySlug: publicProcedure
    .meta(
      operation({
        method: "DELETE",
        path: BY_SLUG,
        tag: TAG,
        summary: "Delete an organizer by slug",
        description: DELETE_DESCRIPTION,
        errors: DELETE_ERRORS,
      }),
    )
    .input(linkedPostDeleteBySlugInput)
    .output(organizerOutput)
    .mutation(({ ctx, input }) =>
      deleteOrganizer(scopeOf(ctx, input.ml_language), { slug: input.slug }, input.force ?? false),
    ),
});

/** The PUT and PATCH forms of the organizer updates (REST only: trpc-to-openapi serves one method per procedure). */
export const organizersRestAliases = router({
  updatePut: update.meta(updateOperation("PUT")).mutation(updateResolver),
  updatePatch: update.meta(updateOperation("PATCH")).mutation(updateResolver),
  updateBySlugPut: updateBySlug.meta(updateBySlugOperation("PUT")).mutation(updateBySlugResolver),
  updateBySlugPatch: updateBySlug.meta(updateBySlugOperation("PATCH")).mutation(updateBySlugResolver),
});

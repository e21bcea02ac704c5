import { type Context, scopeOf } from "../trpc/context.ts";
import { publicProcedure, router } from "../trpc/init.ts";
import {
  asCreated,
  type OperationMethod,
  operation,
  type ReadPolicy,
  withLastModified,
  withListHeaders,
} from "../trpc/operation.ts";
import { eventListMovesWithClock } from "./event.clock.ts";
import { createEvent } from "./event.create.service.ts";
import { deleteEvent, deleteEventBySlug } from "./event.delete.service.ts";
import { eventSubListQuery } from "./event.filters.ts";
import { getEvent, getEventBySlug } from "./event.get.service.ts";
import { listEvents } from "./event.list.service.ts";
import { listOccurrences } from "./event.occurrences.service.ts";
import { eventDetailOutput, eventListOutput, eventOutput } from "./event.output.schemas.ts";
import {
  type EventListQuery,
  type EventUpdateBySlugInput,
  type EventUpdateInput,
  eventCreateBody,
  eventDeleteBySlugInput,
  eventDeleteInput,
  eventGetBySlugInput,
  eventGetInput,
  eventListQuery,
  eventUpdateBySlugInput,
  eventUpdateInput,
} from "./event.schemas.ts";
import { updateEvent, updateEventBySlug } from "./event.update.service.ts";

type Errors = Record<number, string>;

const COLLECTION = "/events";
const ITEM = "/events/{id}";
const BY_SLUG = "/events/by-slug/{slug}";
const OCCURRENCES = "/events/{id}/occurrences";

const NOT_ALLOWED = "Not signed in (401), or the role may not do this to this event (403).";
const LIST_ERRORS = { 400: "Invalid parameter.", 404: "Page past the last (event-archive-page-not-found)." };
const READ_ERRORS = {
  400: "Invalid parameter, or (by slug) no event with that slug.",
  403: "Trashed (event-no-longer-available), not visible (event-not-accessible) or password-protected.",
  404: "No event with that id (rest-event-not-found).",
};
const CREATE_ERRORS = { 400: "Invalid or missing parameter.", 401: NOT_ALLOWED, 403: NOT_ALLOWED };
const UPDATE_ERRORS = { ...CREATE_ERRORS, 404: "No event with that id (rest-event-not-found)." };
const DELETE_ERRORS = { ...UPDATE_ERRORS, 410: "Already in the trash (event-is-in-trash)." };

type WriteMethod = Exclude<OperationMethod, "GET">;

function meta(method: WriteMethod, path: `/${string}`, summary: string, description: string, errors: Errors) {
  return operation({ method, path, tag: "events", summary, description, errors });
}

function readMeta<Input>(
  path: `/${string}`,
  summary: string,
  description: string,
  errors: Errors,
  policy: ReadPolicy<Input>,
) {
  return operation<Input>({ method: "GET", path, tag: "events", summary, description, errors, ...policy });
}

const ITEM_POLICY = { cache: "body", record: "event" } as const;

const UPDATE_DESCRIPTION =
  "Changes only the fields sent; venue, organizer, categories or tags sent as 0, empty or [] are removed. On an occurrence of a series, recurrence_scope says which occurrences change: this (default, the occurrence overrides the fields sent), following (the series splits here) or all; recurrence needs following or all. Also served on PUT and PATCH.";
const DELETE_DESCRIPTION =
  "Moves it to the trash (a second time: 410); force=true (administrators) deletes it permanently. On an occurrence of a series, recurrence_scope says which: this (default, its start becomes an EXDATE), following (the series ends before it) or all.";
const BY_SLUG_NOTE = " The slug is looked up in the request's language; an unknown slug is a 400.";

const update = publicProcedure.input(eventUpdateInput).output(eventOutput);
const updateResolver = ({ ctx, input }: { ctx: Context; input: EventUpdateInput }) =>
  updateEvent(scopeOf(ctx, input.ml_language), input);
const updateBySlug = publicProcedure.input(eventUpdateBySlugInput).output(eventOutput);
const updateBySlugResolver = ({ ctx, input }: { ctx: Context; input: EventUpdateBySlugInput }) =>
  updateEventBySlug(scopeOf(ctx, input.ml_language), input);

/** The event procedures: one set for tRPC (`events.*`) and REST (`/events…`). */
export const eventsRouter = router({
  list: publicProcedure
    .meta(
      readMeta<EventListQuery>(
        COLLECTION,
        "List events",
        "Events of the request's language by start date. Without date filters: starting from yesterday, ending within 24 months.",
        LIST_ERRORS,
        { cache: "version", movesWithClock: eventListMovesWithClock },
      ),
    )
    .input(eventListQuery)
    .output(eventListOutput)
    .query(async ({ ctx, input }) => withListHeaders(ctx, await listEvents(scopeOf(ctx, input.ml_language), input))),
  occurrences: publicProcedure
    .meta(
      readMeta<EventListQuery>(
        OCCURRENCES,
        "List the occurrences of a series",
        "The occurrences of the series the event (any of them) belongs to, as GET /events lists them: the same paging, date window and filters.",
        { ...LIST_ERRORS, ...READ_ERRORS },
        { cache: "version", movesWithClock: eventListMovesWithClock },
      ),
    )
    .input(eventSubListQuery)
    .output(eventListOutput)
    .query(async ({ ctx, input }) =>
      withListHeaders(ctx, await listOccurrences(scopeOf(ctx, input.ml_language), input)),
    ),
  create: publicProcedure
    .meta(meta("POST", COLLECTION, "Create an event", "Creates an event in the request's language.", CREATE_ERRORS))
    .input(eventCreateBody)
    .output(eventOutput)
    .mutation(async ({ ctx, input }) => asCreated(ctx, await createEvent(scopeOf(ctx, input.ml_language), input))),
  getBySlug: publicProcedure
    .meta(
      readMeta(BY_SLUG, "Get an event by slug", `An event with its json_ld.${BY_SLUG_NOTE}`, READ_ERRORS, ITEM_POLICY),
    )
    .input(eventGetBySlugInput)
    .output(eventDetailOutput)
    .query(async ({ ctx, input }) =>
      withLastModified(ctx, await getEventBySlug(scopeOf(ctx, input.ml_language), input)),
    ),
  updateBySlug: updateBySlug
    .meta(meta("POST", BY_SLUG, "Update an event by slug", `${UPDATE_DESCRIPTION}${BY_SLUG_NOTE}`, UPDATE_ERRORS))
    .mutation(updateBySlugResolver),
  deleteBySlug: publicProcedure
    .meta(meta("DELETE", BY_SLUG, "Delete an event by slug", `${DELETE_DESCRIPTION}${BY_SLUG_NOTE}`, DELETE_ERRORS))
    .input(eventDeleteBySlugInput)
    .output(eventOutput)
    .mutation(({ ctx, input }) => deleteEventBySlug(scopeOf(ctx, input.ml_language), input)),
  get: publicProcedure
    .meta(readMeta(ITEM, "Get an event", "An event of any language, with its json_ld.", READ_ERRORS, ITEM_POLICY))
    .input(eventGetInput)
    .output(eventDetailOutput)
    .query(async ({ ctx, input }) => withLastModified(ctx, await getEvent(scopeOf(ctx, input.ml_language), input))),
  update: update
    .meta(meta("POST", ITEM, "Update an event", UPDATE_DESCRIPTION, UPDATE_ERRORS))
    .mutation(updateResolver),
  delete: publicProcedure
    .meta(meta("DELETE", ITEM, "Delete an event", DELETE_DESCRIPTION, DELETE_ERRORS))
    .input(eventDeleteInput)
    .output(eventOutput)
    .mutation(({ ctx, input }) => deleteEvent(scopeOf(ctx, input.ml_language), input)),
});

/** PUT and PATCH of the update paths, for the REST surface only. */
export const eventsRestAliases = router({
  updatePut: update
    .meta(meta("PUT", ITEM, "Update an event", UPDATE_DESCRIPTION, UPDATE_ERRORS))
    .mutation(updateResolver),
  updatePatch: update
    .meta(meta("PATCH", ITEM, "Update an event", UPDATE_DESCRIPTION, UPDATE_ERRORS))
    .mutation(updateResolver),
  updateBySlugPut: updateBySlug
    .meta(meta("PUT", BY_SLUG, "Update an event by slug", UPDATE_DESCRIPTION, UPDATE_ERRORS))
    .mutation(updateBySlugResolver),
  updateBySlugPatch: updateBySlug
    .meta(meta("PATCH", BY_SLUG, "Update an event by slug", UPDATE_DESCRIPTION, UPDATE_ERRORS))
    .mutation(updateBySlugResolver),
});

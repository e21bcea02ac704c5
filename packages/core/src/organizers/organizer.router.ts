import { linkedPostRouters, linkedPostWriteInputs } from "../linked-posts/linked-post.router.ts";
import { organizerCreateBody, organizerListOutput, organizerOutput, organizerUpdateBody } from "./organizer.schemas.ts";
import {
  createOrganizer,
  deleteOrganizer,
  getOrganizer,
  listOrganizers,
  updateOrganizer,
} from "./organizer.service.ts";

const { main, aliases } = linkedPostRouters({
  singular: "organizer",
  plural: "organizers",
  inputs: linkedPostWriteInputs(organizerCreateBody, organizerUpdateBody),
  output: organizerOutput,
  listOutput: organizerListOutput,
  operations: {
    list: listOrganizers,
    get: getOrganizer,
    create: createOrganizer,
    update: updateOrganizer,
    remove: deleteOrganizer,
  },
});

/** `/organizers`, `/organizers/{id}` and `/organizers/by-slug/{slug}`; `organizers.*` over tRPC. */
export const organizersRouter = main;
/** The PUT and PATCH forms of the organizer updates (REST only). */
export const organizersRestAliases = aliases;

import { linkedPostRouters, linkedPostWriteInputs } from "../linked-posts/linked-post.router.ts";
import { venueCreateBody, venueListOutput, venueOutput, venueUpdateBody } from "./venue.schemas.ts";
import { createVenue, deleteVenue, getVenue, listVenues, updateVenue } from "./venue.service.ts";

const { main, aliases } = linkedPostRouters({
  singular: "venue",
  plural: "venues",
  inputs: linkedPostWriteInputs(venueCreateBody, venueUpdateBody),
  output: venueOutput,
  listOutput: venueListOutput,
  operations: { list: listVenues, get: getVenue, create: createVenue, update: updateVenue, remove: deleteVenue },
});

/** `/venues`, `/venues/{id}` and `/venues/by-slug/{slug}`; `venues.*` over tRPC. */
export const venuesRouter = main;
/** The PUT and PATCH forms of the venue updates (REST only). */
export const venuesRestAliases = aliases;

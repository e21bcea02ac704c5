import { z } from "zod";

/** What every post (event, venue, organizer) has on the wire after its id and author, in this order. */
export const postStampsShape = {
  status: z.string(),
  date: z.string(),
  date_utc: z.string(),
  modified: z.string(),
  modified_utc: z.string(),
  url: z.string(),
};

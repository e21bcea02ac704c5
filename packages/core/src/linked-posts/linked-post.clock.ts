import type { LinkedPostListQuery } from "./linked-post.schemas.ts";

/** A list of venues or organizers moves with the clock when it keeps only those with an upcoming event. */
export function linkedPostListMovesWithClock(query: LinkedPostListQuery): boolean {
  return query.only_with_upcoming === true;
}

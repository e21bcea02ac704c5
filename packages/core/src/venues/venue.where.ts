import type { LinkedPostColumns, TextColumn } from "../linked-posts/linked-post.kind.ts";
import type { VenueColumns } from "./venue.present.ts";

/**
 * The venue columns `search` looks at besides name, description and excerpt, in their `searchText` order
 * (docs/behaviour.md, "Venues and organizers": the country is not searched). The list `where` itself is `buildLinkedPostWhere`.
 */
export const VENUE_SEARCH_COLUMNS: ReadonlyArray<TextColumn<LinkedPostColumns & VenueColumns>> = [
  "address",
  "city",
  "province",
  "state",
  "stateprovince",
  "zip",
  "phone",
];

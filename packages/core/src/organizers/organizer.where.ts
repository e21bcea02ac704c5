import type { LinkedPostColumns, TextColumn } from "../linked-posts/linked-post.kind.ts";
import type { OrganizerColumns } from "./organizer.present.ts";

/**
 * The organizer columns `search` looks at besides name, description and excerpt, in their `searchText` order
 * (docs/behaviour.md, "Venues and organizers"). The list `where` itself is `buildLinkedPostWhere`.
 */
export const ORGANIZER_SEARCH_COLUMNS: ReadonlyArray<TextColumn<LinkedPostColumns & OrganizerColumns>> = [
  "phone",
  "email",
  "website",
];

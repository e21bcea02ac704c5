/** The descriptions and error tables that `/categories` and `/tags` share (their routers spell out each operation). */

const NOT_ALLOWED = "Not signed in (401) or without the manage_categories capability (403).";

export const TERM_READ_ERRORS: Record<number, string> = { 400: "Invalid parameter." };
export const TERM_WRITE_ERRORS: Record<number, string> = {
  400: "Invalid or missing parameter, or a duplicate name.",
  401: NOT_ALLOWED,
  403: NOT_ALLOWED,
};

export const TERM_UPDATE_DESCRIPTION = "Changes the fields sent (partial update). Also served on PUT and PATCH.";

export const termListDescription = (key: "categories" | "tags") =>
  `The ${key} of the request's language, name ascending by default; terms without a published event are hidden unless hide_empty=false.`;

export const termDeleteDescription = (noun: "category" | "tag") =>
  `Deletes the ${noun} permanently and answers it as it was; its events lose it.`;

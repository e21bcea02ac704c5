import { z } from "zod";
import { mlLanguage } from "../shared/language.ts";
import { pathId } from "../shared/query.ts";
import { forceQuery, passwordQuery } from "./linked-post.schemas.ts";

/** The inputs and error tables that `/venues` and `/organizers` share (their routers spell out each operation). */

/** The `{slug}` of a by-slug path (any characters but `/`, already percent-decoded). */
const slugParam = z.string().min(1).max(1_000).meta({ description: "URL name of the item." });

const itemByIdInput = z.object({ id: pathId, ml_language: mlLanguage });
const itemBySlugInput = z.object({ slug: slugParam, ml_language: mlLanguage });

export const linkedPostGetInput = itemByIdInput.extend({ password: passwordQuery });
export const linkedPostGetBySlugInput = itemBySlugInput.extend({ password: passwordQuery });
export const linkedPostDeleteInput = itemByIdInput.extend({ force: forceQuery });
export const linkedPostDeleteBySlugInput = itemBySlugInput.extend({ force: forceQuery });

/** A create body with the language. */
export function withLanguage<C extends z.ZodRawShape>(body: z.ZodObject<C>) {
  return body.extend({ ml_language: mlLanguage });
}

/** An update body on the id path. */
export function byId<U extends z.ZodRawShape>(body: z.ZodObject<U>) {
  return body.extend(itemByIdInput.shape);
}

/** An update body on the by-slug path: `slug` names the record, so such an update cannot rename it (the id path can). */
export function bySlug<U extends z.ZodRawShape>(body: z.ZodObject<U>) {
  return body.extend(itemBySlugInput.shape);
}

export const PASSWORD_NOTE =
  "A password-protected one shows only its name unless `password` is given or the requester may edit it.";
export const UPDATE_DESCRIPTION = `Changes only the fields sent; \`""\` clears an optional field.`;

export const LIST_ERRORS = { 400: "Invalid parameter", 404: "Page past the end" };
export const READ_ERRORS = { 400: "Invalid parameter, or no such item", 403: "Not accessible to the requester" };
export const WRITE_ERRORS = {
  400: "Invalid or missing parameter, or no such item",
  401: "Authentication required",
  403: "Not allowed for this user",
};
export const DELETE_ERRORS = { ...WRITE_ERRORS, 410: "Already in the trash" };

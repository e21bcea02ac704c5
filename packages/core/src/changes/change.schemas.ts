import { z } from "zod";
import { languageSchema, mlLanguage } from "../shared/language.ts";

export const CHANGE_TYPES = ["event", "venue", "organizer", "category", "tag"] as const;
export const changeType = z.enum(CHANGE_TYPES);
export type ChangeType = z.infer<typeof changeType>;
export const changeAction = z.enum(["created", "updated", "trashed", "deleted"]);
export type ChangeAction = z.infer<typeof changeAction>;

/** `types=event,venue` (or `types[]=…`): the record types wanted, all when absent. */
const typeList = z
  .preprocess((value) => (typeof value === "string" ? value.split(",").filter(Boolean) : value), z.array(changeType))
  .meta({
    description:
      "The record types to report (comma-separated): event, venue, organizer, category, tag. All when absent.",
  });

export const changeListQuery = z.object({
  since: z
    .string()
    .max(200)
    .optional()
    .meta({ description: "The `next_token` of the previous call. Absent: a token for now, and no changes." }),
  types: typeList.optional(),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(100)
    .meta({ description: "Records per page (1 to 1,000)." }),
  ml_language: mlLanguage,
});
export type ChangeListQuery = z.infer<typeof changeListQuery>;

export const changeOutput = z.object({
  type: changeType,
  id: z.number().int(),
  action: changeAction,
  language: languageSchema,
  modified_utc: z.string().meta({ description: "When the change was written (UTC, `YYYY-MM-DD HH:MM:SS`)." }),
  version: z.number().int().meta({ description: "The calendar change version of the write." }),
});
export type ChangeOutput = z.infer<typeof changeOutput>;

export const changeListOutput = z.object({
  changes: z.array(changeOutput),
  next_token: z.string().meta({ description: "Pass as `since` next time." }),
  has_more: z.boolean().meta({ description: "Another page is waiting: call again with `next_token` now." }),
});
export type ChangeListOutput = z.infer<typeof changeListOutput>;

import { formatWallTime } from "../shared/dates.ts";
import { languageSchema } from "../shared/language.ts";
import { type ChangeAction, type ChangeOutput, changeType } from "./change.schemas.ts";

/** A `Change` row as the feed and the webhooks show it, with the action its reader is told. */
export function presentChange(
  row: { type: string; recordId: number; language: string; modifiedUtc: Date; version: number },
  action: ChangeAction,
): ChangeOutput {
  return {
    type: changeType.parse(row.type),
    id: row.recordId,
    action,
    language: languageSchema.parse(row.language),
    modified_utc: formatWallTime(row.modifiedUtc, "UTC"),
    version: row.version,
  };
}

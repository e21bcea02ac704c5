import { type ChangeAction, type ChangeType, changeAction, changeType } from "../changes/change.schemas.ts";
import { formatWallTime } from "../shared/dates.ts";
import type { WebhookOutput } from "./webhook.schemas.ts";

/** The columns of a subscription that its wire shape shows (never the secret). */
export interface WebhookRow {
  id: number;
  url: string;
  types: string;
  actions: string;
  description: string;
  active: boolean;
  disabledReason: string;
  createdAt: Date;
}

const split = (text: string) => text.split(",").filter(Boolean);

export const typesOf = (row: Pick<WebhookRow, "types">): ChangeType[] =>
  split(row.types).map((t) => changeType.parse(t));
export const actionsOf = (row: Pick<WebhookRow, "actions">): ChangeAction[] =>
  split(row.actions).map((a) => changeAction.parse(a));

export function presentWebhook(row: WebhookRow): WebhookOutput {
  return {
    id: row.id,
    url: row.url,
    types: typesOf(row),
    actions: actionsOf(row),
    description: row.description,
    active: row.active,
    disabled_reason: row.disabledReason,
    created_utc: formatWallTime(row.createdAt, "UTC"),
  };
}

/** Does a subscription want this change? Empty lists want everything. */
export function wants(row: Pick<WebhookRow, "types" | "actions">, type: string, action: string): boolean {
  const types = split(row.types);
  const actions = split(row.actions);
  return (types.length === 0 || types.includes(type)) && (actions.length === 0 || actions.includes(action));
}

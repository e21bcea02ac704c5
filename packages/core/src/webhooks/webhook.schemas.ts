import { z } from "zod";
import { changeAction, changeType } from "../changes/change.schemas.ts";
import { mlLanguage } from "../shared/language.ts";
import { listItems, pathId, wpBoolean } from "../shared/query.ts";

/** `types`/`actions` as a JSON array or a comma-separated string (form bodies). */
const listOf = <T extends z.ZodType>(item: T) => z.preprocess((value) => listItems(value), z.array(item));

const url = z.string().trim().min(1).max(2_000).meta({
  description:
    "Where the changes are POSTed: an https:// URL resolving to a public address (http:// and private addresses only when the server allows insecure webhooks).",
});
const types = listOf(changeType).meta({
  description: "The record types to deliver: event, venue, organizer, category, tag. All when empty or absent.",
});
const actions = listOf(changeAction).meta({
  description: "The actions to deliver: created, updated, trashed, deleted. All when empty or absent.",
});
const description = z.string().max(500).meta({ description: "A note for administrators." });

export const webhookCreateBody = z.object({
  url,
  types: types.optional(),
  actions: actions.optional(),
  description: description.optional(),
  ml_language: mlLanguage,
});
export type WebhookCreateBody = z.infer<typeof webhookCreateBody>;

/** `ml_language` is accepted everywhere (as on every route) and changes nothing here. */
export const webhookListQuery = z.object({ ml_language: mlLanguage });

export const webhookItemQuery = z.object({ id: pathId, ml_language: mlLanguage });
export type WebhookItemQuery = z.infer<typeof webhookItemQuery>;

export const webhookUpdateBody = z.object({
  id: pathId,
  url: url.optional(),
  types: types.optional(),
  actions: actions.optional(),
  description: description.optional(),
  active: wpBoolean
    .optional()
    .meta({ description: "false pauses deliveries; true resumes them with the changes from then on." }),
  ml_language: mlLanguage,
});
export type WebhookUpdateBody = z.infer<typeof webhookUpdateBody>;

export const webhookOutput = z.object({
  id: z.number().int(),
  url: z.string(),
  types: z.array(changeType),
  actions: z.array(changeAction),
  description: z.string(),
  active: z.boolean(),
  disabled_reason: z
    .string()
    .meta({ description: "Why the server disabled the subscription (its deliveries kept failing); empty otherwise." }),
  created_utc: z.string().meta({ description: "When it was created (UTC, `YYYY-MM-DD HH:MM:SS`)." }),
});
export type WebhookOutput = z.infer<typeof webhookOutput>;

export const webhookWithSecretOutput = webhookOutput.extend({
  secret: z.string().meta({
    description:
      "The signing secret (`whsec_` + base64 of 32 random bytes), shown only now: verify each delivery's `webhook-signature` with it.",
  }),
});
export type WebhookWithSecretOutput = z.infer<typeof webhookWithSecretOutput>;

export const webhookListOutput = z.object({ webhooks: z.array(webhookOutput) });

export const webhookDeleteOutput = z.object({ deleted: z.literal(true), previous: webhookOutput });

export const deliveryStatus = z.enum(["pending", "delivered", "failed"]);
export type DeliveryStatus = z.infer<typeof deliveryStatus>;

export const webhookDeliveriesQuery = z.object({
  id: pathId,
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .meta({ description: "Attempts to list, most recent first (1 to 100)." }),
  ml_language: mlLanguage,
});
export type WebhookDeliveriesQuery = z.infer<typeof webhookDeliveriesQuery>;

export const webhookAttemptOutput = z.object({
  delivery_id: z.string().meta({ description: "The delivery's `webhook-id` header." }),
  type: z.string().meta({ description: "The delivery's event type, such as `event.created`." }),
  version: z.number().int(),
  delivery_status: deliveryStatus,
  attempted_utc: z.string(),
  succeeded: z.boolean(),
  response_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null if none came." }),
  duration_ms: z.number().int(),
  error: z.string().meta({ description: "Why the attempt failed; empty when it succeeded." }),
});

export const webhookDeliveriesOutput = z.object({ attempts: z.array(webhookAttemptOutput) });
export type WebhookDeliveriesOutput = z.infer<typeof webhookDeliveriesOutput>;

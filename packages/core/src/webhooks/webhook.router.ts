import { type Context, setRestStatus } from "../trpc/context.ts";
import { publicProcedure, router } from "../trpc/init.ts";
import { operation } from "../trpc/operation.ts";
import {
  webhookCreateBody,
  webhookDeleteOutput,
  webhookDeliveriesOutput,
  webhookDeliveriesQuery,
  webhookItemQuery,
  webhookListOutput,
  webhookListQuery,
  webhookOutput,
  webhookUpdateBody,
  webhookWithSecretOutput,
} from "./webhook.schemas.ts";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookAttempts,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookScope,
} from "./webhook.service.ts";

const COLLECTION = "/webhooks";
const ITEM = "/webhooks/{id}";
const NOT_ALLOWED = "Not signed in (401) or not an administrator (403).";
const ERRORS = { 400: "Invalid parameter.", 401: NOT_ALLOWED, 403: NOT_ALLOWED };
const ITEM_ERRORS = { ...ERRORS, 404: "No webhook subscription with this id." };

/** Administrators only; no answer is tagged by the change version (subscriptions are not records of the feed). */
const meta = (
  method: "GET" | "POST" | "DELETE",
  path: `/${string}`,
  summary: string,
  description: string,
  errors: Record<number, string>,
) =>
  method === "GET"
    ? operation({
        method,
        path,
        tag: "webhooks",
        summary,
        description,
        errors,
        protect: true,
        cache: "body",
        record: null,
      })
    : operation({ method, path, tag: "webhooks", summary, description, errors, protect: true });

const scopeOf = (ctx: Context): WebhookScope => ({
  db: ctx.db,
  actor: ctx.actor,
  policy: { allowInsecure: ctx.site.allowInsecureWebhooks ?? false, ports: ctx.site.webhookPorts },
});

/** `/webhooks`: administrators' subscriptions to the changes, signed deliveries (Standard Webhooks). */
export const webhooksRouter = router({
  list: publicProcedure
    .meta(meta("GET", COLLECTION, "List webhook subscriptions", "Every subscription, oldest first.", ERRORS))
    .input(webhookListQuery)
    .output(webhookListOutput)
    .query(async ({ ctx }) => ({ webhooks: await listWebhooks(scopeOf(ctx)) })),
  create: publicProcedure
    .meta(
      meta(
        "POST",
        COLLECTION,
        "Subscribe a URL to the changes",
        "Each committed change of the types and actions asked for (all when absent) is POSTed to the URL, signed with the secret of the answer, which is shown only now.",
        { ...ERRORS, 400: "Invalid parameter, such as a URL that is not https:// or resolves to a private address." },
      ),
    )
    .input(webhookCreateBody)
    .output(webhookWithSecretOutput)
    .mutation(async ({ ctx, input }) => {
      const created = await createWebhook(scopeOf(ctx), input);
      setRestStatus(ctx, 201);
      return created;
    }),
  get: publicProcedure
    .meta(meta("GET", ITEM, "Get a webhook subscription", "A subscription by id, without its secret.", ITEM_ERRORS))
    .input(webhookItemQuery)
    .output(webhookOutput)
    .query(({ ctx, input }) => getWebhook(scopeOf(ctx), input.id)),
  update: publicProcedure
    .meta(
      meta(
        "POST",
        ITEM,
        "Update a webhook subscription",
        "Changes the fields sent (url, types, actions, active).",
        ITEM_ERRORS,
      ),
    )
    .input(webhookUpdateBody)
    .output(webhookOutput)
    .mutation(({ ctx, input }) => updateWebhook(scopeOf(ctx), input)),
  delete: publicProcedure
    .meta(meta("DELETE", ITEM, "Delete a webhook subscription", "Deletes it with its queued deliveries.", ITEM_ERRORS))
    .input(webhookItemQuery)
    .output(webhookDeleteOutput)
    .mutation(async ({ ctx, input }) => ({
      deleted: true as const,
      previous: await deleteWebhook(scopeOf(ctx), input.id),
    })),
  rotateSecret: publicProcedure
    .meta(
      meta(
        "POST",
        `${ITEM}/rotate-secret`,
        "Rotate a webhook's secret",
        "A new signing secret, used from now on (retries included), shown only now.",
        ITEM_ERRORS,
      ),
    )
    .input(webhookItemQuery)
    .output(webhookWithSecretOutput)
    .mutation(({ ctx, input }) => rotateWebhookSecret(scopeOf(ctx), input.id)),
  deliveries: publicProcedure
    .meta(
      meta(
        "GET",
        `${ITEM}/deliveries`,
        "List a webhook's recent delivery attempts",
        "The most recent attempts first: the receiver's status code, the duration and the error of each.",
        ITEM_ERRORS,
      ),
    )
    .input(webhookDeliveriesQuery)
    .output(webhookDeliveriesOutput)
    .query(({ ctx, input }) => listWebhookAttempts(scopeOf(ctx), input)),
});

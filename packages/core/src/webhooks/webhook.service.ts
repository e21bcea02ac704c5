import { requireCapability } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import { readChangeVersion } from "../changes/change-version.ts";
import type { Db } from "../db/db.ts";
import { prismaCodeOf } from "../db/write.ts";
import { domainError, invalidParam } from "../errors.ts";
import { formatWallTime } from "../shared/dates.ts";
import { resolveWebhookTarget, type WebhookTargetPolicy, WebhookTargetRefused } from "./webhook.address.ts";
import { presentWebhook } from "./webhook.present.ts";
import type {
  WebhookCreateBody,
  WebhookDeliveriesOutput,
  WebhookDeliveriesQuery,
  WebhookOutput,
  WebhookUpdateBody,
  WebhookWithSecretOutput,
} from "./webhook.schemas.ts";
import { deliveryStatus } from "./webhook.schemas.ts";
import { newWebhookSecret } from "./webhook.secret.ts";

/** What the webhook services need: the database, the caller (administrators only) and the URL policy. */
export interface WebhookScope {
  db: Db;
  actor: Actor;
  policy: WebhookTargetPolicy;
}

const notFound = () => domainError("rest_webhook_invalid_id");

/** Refuses a URL the deliveries could not be sent to (form, scheme, or an address that is not public): 400 `url`. */
async function checkUrl(url: string, policy: WebhookTargetPolicy): Promise<void> {
  try {
    await resolveWebhookTarget(url, policy);
  } catch (error) {
    if (error instanceof WebhookTargetRefused) throw invalidParam("url", error.message);
    throw error;
  }
}

/**
 * Runs a write of one subscription: if a concurrent request deleted it after it was found, it is not found (as it
 * would be a moment later), not a failure of the server.
 */
async function unlessGone<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    // P2025: the row an update or a delete was to change is not there.
    if (prismaCodeOf(error) === "P2025") throw notFound();
    throw error;
  }
}

async function findSubscription(db: Db, id: number) {
  const row = await db.webhookSubscription.findUnique({ where: { id } });
  if (!row) throw notFound();
  return row;
}

/** Subscribes a URL to the changes from now on; the answer carries the secret, which is never shown again. */
export async function createWebhook(scope: WebhookScope, body: WebhookCreateBody): Promise<WebhookWithSecretOutput> {
  requireCapability(scope.actor, "manage_webhooks");
  await checkUrl(body.url, scope.policy);
  const secret = newWebhookSecret();
  const row = await scope.db.webhookSubscription.create({
    data: {
      url: body.url,
      types: (body.types ?? []).join(","),
      actions: (body.actions ?? []).join(","),
      description: body.description ?? "",
      secret,
      cursor: await readChangeVersion(scope.db),
    },
  });
  return { ...presentWebhook(row), secret };
}

export async function listWebhooks(scope: WebhookScope): Promise<WebhookOutput[]> {
  requireCapability(scope.actor, "manage_webhooks");
  const rows = await scope.db.webhookSubscription.findMany({ orderBy: { id: "asc" } });
  return rows.map(presentWebhook);
}

export async function getWebhook(scope: WebhookScope, id: number): Promise<WebhookOutput> {
  requireCapability(scope.actor, "manage_webhooks");
  return presentWebhook(await findSubscription(scope.db, id));
}

/**
 * Changes the fields sent. Turning a subscription on again clears why it was disabled and starts it at the current
 * change version: what changed while it was off is not delivered (the change feed has it).
 */
export async function updateWebhook(scope: WebhookScope, body: WebhookUpdateBody): Promise<WebhookOutput> {
  requireCapability(scope.actor, "manage_webhooks");
  const existing = await findSubscription(scope.db, body.id);
  if (body.url !== undefined) await checkUrl(body.url, scope.policy);
  const resumes = body.active === true && !existing.active;
  const data = {
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.types !== undefined ? { types: body.types.join(",") } : {}),
    ...(body.actions !== undefined ? { actions: body.actions.join(",") } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.active !== undefined ? { active: body.active, disabledReason: "" } : {}),
    ...(resumes ? { failingSince: null, cursor: await readChangeVersion(scope.db) } : {}),
  };
  const row = await unlessGone(() => scope.db.webhookSubscription.update({ where: { id: body.id }, data }));
  return presentWebhook(row);
}

/** Deletes a subscription with its queued deliveries and their attempts. */
export async function deleteWebhook(scope: WebhookScope, id: number): Promise<WebhookOutput> {
  requireCapability(scope.actor, "manage_webhooks");
  const row = await unlessGone(() =>
    scope.db.$transaction(async (tx) => {
      const found = await tx.webhookSubscription.findUnique({ where: { id } });
      if (!found) throw notFound();
      await tx.webhookSubscription.delete({ where: { id } });
      return found;
    }),
  );
  return presentWebhook(row);
}

/** A new secret, effective for every delivery sent from now on (retries included); shown once. */
export async function rotateWebhookSecret(scope: WebhookScope, id: number): Promise<WebhookWithSecretOutput> {
  requireCapability(scope.actor, "manage_webhooks");
  await findSubscription(scope.db, id);
  const secret = newWebhookSecret();
  const row = await unlessGone(() => scope.db.webhookSubscription.update({ where: { id }, data: { secret } }));
  return { ...presentWebhook(row), secret };
}

/** The subscription's most recent delivery attempts, newest first. */
export async function listWebhookAttempts(
  scope: WebhookScope,
  query: WebhookDeliveriesQuery,
): Promise<WebhookDeliveriesOutput> {
  requireCapability(scope.actor, "manage_webhooks");
  await findSubscription(scope.db, query.id);
  const rows = await scope.db.webhookAttempt.findMany({
    where: { subscriptionId: query.id },
    orderBy: { id: "desc" },
    take: query.per_page,
    include: { delivery: { select: { messageId: true, eventType: true, version: true, status: true } } },
  });
  return {
    attempts: rows.map((row) => ({
      delivery_id: row.delivery.messageId,
      type: row.delivery.eventType,
      version: row.delivery.version,
      delivery_status: deliveryStatus.parse(row.delivery.status),
      attempted_utc: formatWallTime(row.attemptedAt, "UTC"),
      succeeded: row.succeeded,
      response_code: row.responseStatus,
      duration_ms: row.durationMs,
      error: row.error,
    })),
  };
}

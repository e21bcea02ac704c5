import type { DbHandle, Site } from "@calendar/core";
import type { FastifyInstance } from "fastify";
import { webhookRecordPresenter } from "./webhook.records.ts";
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from "./webhook.worker.ts";

/** The origin of the listening server, for the links of the records the deliveries carry. */
function listeningOrigin(server: FastifyInstance): string {
  const address = server.addresses()[0];
  if (!address || typeof address === "string") return "http://localhost";
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Runs the webhook worker while the server listens; a shutdown stops it first and waits briefly for the deliveries
 * in flight. The records' links use the public URL, or else the address the server listens on.
 */
export function registerWebhookWorker(
  server: FastifyInstance,
  settings: { handle: DbHandle; site: Site; publicUrl: string | undefined; options: WebhookWorkerOptions },
): void {
  let worker: WebhookWorker | undefined;
  server.addHook("onListen", async () => {
    const apiRoot = `${settings.publicUrl ?? listeningOrigin(server)}/cal/events/v1`;
    const presentRecord = webhookRecordPresenter(settings.handle, settings.site, apiRoot);
    worker = startWebhookWorker(settings.handle, presentRecord, settings.options, server.log);
  });
  server.addHook("preClose", async () => {
    await worker?.stop();
  });
}

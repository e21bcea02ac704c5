import { PROVIDERS } from "@calendar/core/testing";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { buildServer } from "../../src/server.ts";
import type { WebhookWorkerOptions } from "../../src/webhooks/webhook.worker.ts";
import { type RestRequest, useTestServer } from "../support/server.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";

const EVENT = { title: "Hooked", start_date: "2031-03-01 10:00:00", end_date: "2031-03-01 11:00:00" };
const FAST: WebhookWorkerOptions = {
  pollMs: 20,
  timeoutMs: 2_000,
  retryBaseMs: 50,
  retryForMs: 60_000,
  disableAfterMs: 600_000,
  allowInsecure: true,
  retentionDays: 30,
  shutdownGraceMs: 1_000,
};
const WAIT = { timeout: 15_000, interval: 20 };

/** The part of a stored delivery's body these tests read: the id of the record that changed. */
const deliveryBody = z.object({ data: z.object({ id: z.number() }) });

describe.each(PROVIDERS)("webhook deliveries (%s)", (provider) => {
  // Writes go through this server, which runs no worker; each test starts the worker servers it needs.
  const writer = useTestServer(provider, { site: { timezone: "UTC", allowInsecureWebhooks: true } });
  const admin = () => writer.users.administrator;
  const asAdmin = (request: RestRequest = {}): RestRequest => ({ ...request, as: admin() });
  let receiver: WebhookReceiver;
  const workers: FastifyInstance[] = [];

  async function startWorker(options: Partial<WebhookWorkerOptions> = {}): Promise<FastifyInstance> {
    const server = await buildServer({
      handle: writer.database.handle,
      site: { timezone: "UTC", allowInsecureWebhooks: true },
      bodyLimit: 1024 * 1024,
      webhooks: { ...FAST, ...options },
    });
    await server.listen({ host: "127.0.0.1", port: 0 });
    workers.push(server);
    return server;
  }

  async function subscribe(body: Record<string, unknown> = {}) {
    const request = { as: admin(), body: { url: receiver.url, ...body }, status: 201 };
    return (await writer.call("POST /webhooks", request)).body;
  }

  /** Writes that advance the feed, as the administrator; each must succeed. */
  const createTag = async (name: string) => (await writer.call("POST /tags", asAdmin({ body: { name } }))).body;
  const deleteTag = (id: number) =>
    writer.call("DELETE /tags/{id}", { ...asAdmin({ query: { force: "true" } }), params: { id } });

  const webhook = async (id: number) => (await writer.call("GET /webhooks/{id}", { as: admin(), params: { id } })).body;
  const attemptsOf = async (id: number) =>
    (await writer.call("GET /webhooks/{id}/deliveries", { as: admin(), params: { id } })).body.attempts;

  let firstToken = "";
  beforeEach(async () => {
    firstToken ||= (await writer.call("GET /changes", {})).body.next_token;
  });

  const webhookIds = () => receiver.received.map(({ headers }) => headers["webhook-id"]);

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    for (const server of workers.splice(0)) await server.close();
    await writer.db.webhookSubscription.deleteMany();
    await receiver.close();
  });

  it("delivers every change once, signed, in version order, with the record as an administrator reads it", async () => {
    const { secret } = await subscribe();
    await startWorker();
    const event = (await writer.call("POST /events", asAdmin({ body: EVENT }))).body;
    const params = { id: event.id };
    await writer.call("POST /events/{id}", { ...asAdmin({ body: { title: "Hooked again" } }), params });
    const venue = (await writer.call("POST /venues", asAdmin({ body: { venue: "Hall" } }))).body;
    await writer.call("DELETE /events/{id}", { ...asAdmin(), params });
    await writer.call("DELETE /events/{id}", { ...asAdmin({ query: { force: "true" } }), params });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(5), WAIT);
    const bodies = receiver.verified(secret);
    expect(bodies.map((body) => body.type)).toEqual([
      "event.created",
      "event.updated",
      "venue.created",
      "event.trashed",
      "event.deleted",
    ]);
    const versions = bodies.map((body) => body.data.version as number);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(webhookIds()).size).toBe(5);
    const venueBody = bodies[2];
    expect(venueBody).toEqual({
      type: "venue.created",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        type: "venue",
        id: venue.id,
        action: "created",
        language: "en",
        modified_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        version: expect.any(Number),
        object: expect.objectContaining({ id: venue.id, venue: "Hall" }),
      },
    });
    const { object, ...change } = venueBody?.data ?? {};
    const feed = await writer.call("GET /changes", { as: admin(), query: { since: firstToken } });
    expect(feed.body.changes).toContainEqual(change);
    expect(bodies[4]?.data.object).toBeNull();
    expect(receiver.received[0]?.headers["content-type"]).toBe("application/json");
  });

  it("delivers only the types and actions a subscription asks for", async () => {
    const { secret } = await subscribe({ types: ["tag"], actions: ["deleted"] });
    await startWorker();
    const tag = await createTag("Filtered");
    await writer.call("POST /categories", asAdmin({ body: { name: "Not wanted" } }));
    await deleteTag(tag.id);
    const marker = await createTag("Marker");
    await deleteTag(marker.id);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(2), WAIT);
    expect(receiver.verified(secret).map((body) => [body.type, body.data.id])).toEqual([
      ["tag.deleted", tag.id],
      ["tag.deleted", marker.id],
    ]);
  });

  it("retries a failing receiver with the same webhook-id, holds back the later changes, and resumes in order", async () => {
    const { id, secret } = await subscribe();
    receiver.answer(500);
    await startWorker();
    const first = await createTag("First");
    const second = await createTag("Second");
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(3), WAIT);
    receiver.answer("drop");
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(5), WAIT);
    expect(new Set(webhookIds()).size).toBe(1);
    receiver.answer(204);
    await vi.waitFor(() => expect(new Set(webhookIds()).size).toBe(2), WAIT);
    const delivered = receiver.verified(secret).map((body) => body.data.id);
    expect([...new Set(delivered)]).toEqual([first.id, second.id]);
    // The worker records an attempt once the receiver has answered: wait for the second success to be recorded.
    await vi.waitFor(
      async () => expect((await attemptsOf(id)).filter((attempt) => attempt.succeeded)).toHaveLength(2),
      WAIT,
    );
    const attempts = await attemptsOf(id);
    expect(attempts[0]).toMatchObject({ type: "tag.created", succeeded: true, response_code: 204, error: "" });
    expect(attempts).toContainEqual(
      expect.objectContaining({ succeeded: false, response_code: 500, error: "The receiver answered 500." }),
    );
    expect(attempts).toContainEqual(expect.objectContaining({ succeeded: false, response_code: null }));
    expect(attempts.filter((attempt) => attempt.succeeded)).toHaveLength(2);
    expect(JSON.stringify(attempts)).not.toContain(secret.slice("whsec_".length));
  });

  it("loses nothing across a restart: what was queued and what was written while no worker ran", async () => {
    const { secret } = await subscribe();
    receiver.answer(503);
    const before = await startWorker();
    const queued = await createTag("Queued before the restart");
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(1), WAIT);
    await before.close();
    const unseen = await createTag("Written while down");
    receiver.answer(204);
    await startWorker();
    await vi.waitFor(() => expect(new Set(webhookIds()).size).toBe(2), WAIT);
    const ids = receiver.verified(secret).map((body) => body.data.id);
    expect([...new Set(ids)]).toEqual([queued.id, unseen.id]);
  });

  it("gives a delivery up after the retry period, then sends the next one", async () => {
    const { id } = await subscribe();
    receiver.answer(500);
    await startWorker({ retryForMs: 200 });
    const abandoned = await createTag("Abandoned");
    await vi.waitFor(async () => {
      const delivery = await writer.db.webhookDelivery.findFirst({ where: { subscriptionId: id } });
      expect(delivery?.status).toBe("failed");
    }, WAIT);
    receiver.answer(204);
    const next = await createTag("Next");
    await vi.waitFor(async () => {
      const statuses = await writer.db.webhookDelivery.findMany({
        where: { subscriptionId: id },
        orderBy: { id: "asc" },
      });
      const idOf = (body: string) => deliveryBody.parse(JSON.parse(body)).data.id;
      expect(statuses.map((delivery) => [idOf(delivery.body), delivery.status])).toEqual([
        [abandoned.id, "failed"],
        [next.id, "delivered"],
      ]);
    }, WAIT);
  });

  it("disables a subscription whose deliveries keep failing", async () => {
    const { id } = await subscribe();
    receiver.answer(500);
    await startWorker({ disableAfterMs: 300 });
    await createTag("Never received");
    await vi.waitFor(async () => {
      const { active, disabled_reason } = await webhook(id);
      expect([active, disabled_reason]).toEqual([false, "Its deliveries failed for 0 seconds."]);
    }, WAIT);
    await createTag("While disabled");
    const resumed = await writer.call("POST /webhooks/{id}", { as: admin(), params: { id }, body: { active: true } });
    expect(resumed.body).toMatchObject({ active: true, disabled_reason: "" });
    // Resumed from the current version on: the change made while it was disabled is for the feed to tell.
    expect(await writer.db.webhookDelivery.count({ where: { subscriptionId: id } })).toBe(1);
  });

  it("checks the URL again at delivery: refused without CALENDAR_WEBHOOKS_ALLOW_INSECURE, nothing sent", async () => {
    const { id } = await subscribe();
    await startWorker({ allowInsecure: false });
    await createTag("Refused");
    await vi.waitFor(async () => {
      const attempts = await attemptsOf(id);
      expect(attempts[0]).toMatchObject({ succeeded: false, response_code: null, error: "Must be an https:// URL." });
    }, WAIT);
    expect(receiver.received).toEqual([]);
  });

  it("gives up on a receiver that does not answer within the timeout", async () => {
    const { id } = await subscribe();
    receiver.answer("hang");
    await startWorker({ timeoutMs: 200 });
    await createTag("Unanswered");
    await vi.waitFor(async () => {
      const attempts = await attemptsOf(id);
      expect(attempts[0]).toMatchObject({ succeeded: false, response_code: null, error: "No answer within 0.2 s." });
      expect(attempts[0]?.duration_ms).toBeGreaterThanOrEqual(200);
    }, WAIT);
  });
});

import { PROVIDERS } from "@calendar/core/testing";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildServer } from "../../src/server.ts";
import type { WebhookWorkerOptions } from "../../src/webhooks/webhook.worker.ts";
import { useTestServer } from "../support/server.ts";

const LOCAL_RECEIVERS = "CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers";
const privateAddress = (host: string) =>
  `The host ${host} resolves to a private, loopback or reserved address (${LOCAL_RECEIVERS}).`;
const refusedPort = (port: number) =>
  `Port ${port} is not allowed: use 443, or list the port in CALENDAR_WEBHOOKS_PORTS (${LOCAL_RECEIVERS}).`;

/** IPv6 forms that carry a private IPv4 address, as URLs, with the host their refusal names. */
const EMBEDDED_PRIVATE: Array<[url: string, host: string]> = [
  ["https://[::7f00:1]/hooks", "::7f00:1"],
  ["https://[::a9fe:a9fe]/latest", "::a9fe:a9fe"],
  ["https://[::ffff:7f00:1]/hooks", "::ffff:7f00:1"],
  ["https://[::ffff:0:a9fe:a9fe]/hooks", "::ffff:0:a9fe:a9fe"],
  ["https://[64:ff9b::a9fe:a9fe]/hooks", "64:ff9b::a9fe:a9fe"],
  ["https://[2002:a00:1::1]/hooks", "2002:a00:1::1"],
  ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks", "2001:0:4136:e378:8000:63bf:80ff:fffe"],
];

describe.each(PROVIDERS)("webhook URLs by default (%s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "UTC", webhookPorts: [8443] } });
  const subscribe = (url: string) =>
    server.rest("POST", "/cal/events/v1/webhooks", { as: server.users.administrator, body: { url } });
  const invalidUrl = (reason: string) => ({
    code: "rest_invalid_param",
    message: "Invalid parameter(s): url",
    data: { status: 400, params: { url: reason } },
  });

  it("refuses IPv6 forms that embed a private IPv4 address, over REST and tRPC", async () => {
    const client = server.client(server.users.administrator);
    for (const [url, host] of EMBEDDED_PRIVATE) {
      const response = await subscribe(url);
      expect([url, response.status, response.body]).toEqual([url, 400, invalidUrl(privateAddress(host))]);
      await expect(client.webhooks.create.mutate({ url }), url).rejects.toMatchObject({
        data: { httpStatus: 400, domain: { params: { url: privateAddress(host) } } },
      });
    }
    expect(await server.db.webhookSubscription.count()).toBe(0);
  });

  it("accepts those that embed a public one (NAT64 of an IPv4-only receiver), and public IPv6", async () => {
    for (const url of ["https://[64:ff9b::5db8:d70e]/hooks", "https://[2606:4700::1111]/hooks"]) {
      expect([url, (await subscribe(url)).status]).toEqual([url, 201]);
    }
  });

  it("refuses ports other than 443 and those CALENDAR_WEBHOOKS_PORTS lists", async () => {
    for (const port of [80, 8080, 22]) {
      const url = `https://93.184.215.14:${port}/hooks`;
      const response = await subscribe(url);
      expect([response.status, response.body]).toEqual([400, invalidUrl(refusedPort(port))]);
    }
    const before = await server.db.webhookSubscription.count();
    for (const url of ["https://93.184.215.14:443/hooks", "https://93.184.215.14:8443/hooks"]) {
      expect([url, (await subscribe(url)).status]).toEqual([url, 201]);
    }
    expect(await server.db.webhookSubscription.count()).toBe(before + 2);
  });
});

describe.each(PROVIDERS)("webhook URLs with insecure receivers allowed (%s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "UTC", allowInsecureWebhooks: true } });

  it("accept any port and local addresses", async () => {
    for (const url of ["https://127.0.0.1:8080/hooks", "http://[::7f00:1]:9/hooks"]) {
      const response = await server.rest("POST", "/cal/events/v1/webhooks", {
        as: server.users.administrator,
        body: { url },
      });
      expect([url, response.status]).toEqual([url, 201]);
    }
  });
});

describe.each(PROVIDERS)("webhook deliveries to an embedded private address (%s)", (provider) => {
  // Subscribed while insecure receivers were allowed; delivered by a worker that does not allow them.
  const writer = useTestServer(provider, { site: { timezone: "UTC", allowInsecureWebhooks: true } });
  const workers: FastifyInstance[] = [];
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.close();
  });

  it("are refused at sending, before any connection", async () => {
    const as = writer.users.administrator;
    const { id } = (await writer.call("POST /webhooks", { as, body: { url: "https://[::7f00:1]/hooks" } })).body;
    const options: WebhookWorkerOptions = {
      pollMs: 20,
      timeoutMs: 2_000,
      retryBaseMs: 60_000,
      retryForMs: 60_000,
      disableAfterMs: 600_000,
      allowInsecure: false,
      retentionDays: 30,
      shutdownGraceMs: 1_000,
    };
    const worker = await buildServer({
      handle: writer.database.handle,
      site: { timezone: "UTC" },
      bodyLimit: 1024 * 1024,
      webhooks: options,
    });
    workers.push(worker);
    await worker.listen({ host: "127.0.0.1", port: 0 });
    await writer.call("POST /tags", { as, body: { name: "Refused" } });
    await vi.waitFor(
      async () => {
        const attempts = (await writer.call("GET /webhooks/{id}/deliveries", { as, params: { id } })).body.attempts;
        expect(attempts[0]).toMatchObject({ succeeded: false, response_code: null, error: privateAddress("::7f00:1") });
      },
      { timeout: 15_000, interval: 20 },
    );
  });
});

import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { type RestRequest, useTestServer } from "../support/server.ts";

const BASE = "/cal/events/v1";
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const RECEIVER = "http://127.0.0.1:9/hooks";

describe.each(PROVIDERS)("managing webhook subscriptions (%s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "UTC", allowInsecureWebhooks: true } });
  const admin = () => server.users.administrator;
  const asAdmin = (request: RestRequest = {}): RestRequest => ({ ...request, as: admin() });

  async function subscribe(body: Record<string, unknown> = { url: RECEIVER }) {
    return (await server.call("POST /webhooks", { as: admin(), body, status: 201 })).body;
  }

  it("creates a subscription and shows its secret once", async () => {
    const created = await subscribe({
      url: RECEIVER,
      types: ["event", "venue"],
      actions: "created,deleted",
      description: "site cache",
    });
    expect(created).toEqual({
      id: expect.any(Number),
      url: RECEIVER,
      types: ["event", "venue"],
      actions: ["created", "deleted"],
      description: "site cache",
      active: true,
      disabled_reason: "",
      created_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      secret: expect.stringMatching(SECRET),
    });
    expect(Buffer.from(created.secret.slice("whsec_".length), "base64")).toHaveLength(32);
    const { secret, ...shown } = created;
    const read = await server.call("GET /webhooks/{id}", { as: admin(), params: { id: created.id }, status: 200 });
    expect(read.body).toEqual(shown);
    expect(read.text).not.toContain(secret);
    const list = await server.call("GET /webhooks", { as: admin(), status: 200 });
    expect(list.body.webhooks).toContainEqual(shown);
    expect(list.text).not.toContain("whsec_");
  });

  it("updates, rotates the secret of, and deletes a subscription", async () => {
    const created = await subscribe();
    const params = { id: created.id };
    const updated = await server.call("POST /webhooks/{id}", {
      as: admin(),
      params,
      body: { types: ["tag"], active: false },
      status: 200,
    });
    expect(updated.body).toMatchObject({ id: created.id, url: RECEIVER, types: ["tag"], actions: [], active: false });
    const rotated = await server.call("POST /webhooks/{id}/rotate-secret", { as: admin(), params, status: 200 });
    expect(rotated.body.secret).toMatch(SECRET);
    expect(rotated.body.secret).not.toBe(created.secret);
    const deliveries = await server.call("GET /webhooks/{id}/deliveries", { as: admin(), params, status: 200 });
    expect(deliveries.body).toEqual({ attempts: [] });
    const deleted = await server.call("DELETE /webhooks/{id}", { as: admin(), params, status: 200 });
    expect(deleted.body).toEqual({ deleted: true, previous: { ...updated.body } });
    const gone = await server.fail("GET /webhooks/{id}", 404, { as: admin(), params });
    expect(gone.body).toEqual({
      code: "rest_webhook_invalid_id",
      message: "No webhook subscription with this id.",
      data: { status: 404 },
    });
  });

  it("answers 404 for every operation on an unknown id", async () => {
    for (const [method, path] of [
      ["GET", "/webhooks/999999"],
      ["POST", "/webhooks/999999"],
      ["DELETE", "/webhooks/999999"],
      ["POST", "/webhooks/999999/rotate-secret"],
      ["GET", "/webhooks/999999/deliveries"],
    ] as const) {
      const response = await server.rest<RestErrorBody>(
        method,
        `${BASE}${path}`,
        asAdmin(method === "POST" ? { body: {} } : {}),
      );
      expect([method, path, response.status, response.body.code]).toEqual([
        method,
        path,
        404,
        "rest_webhook_invalid_id",
      ]);
    }
  });

  it("answers 404, not 500, to updates, rotations and deletes that a concurrent delete overtakes", async () => {
    const statuses = new Set<number>();
    for (let round = 0; round < 5; round++) {
      const { id } = await subscribe();
      const responses = await Promise.all([
        ...Array.from({ length: 4 }, () => server.rest("POST", `${BASE}/webhooks/${id}/rotate-secret`, asAdmin())),
        ...Array.from({ length: 4 }, () =>
          server.rest("POST", `${BASE}/webhooks/${id}`, asAdmin({ body: { description: "raced" } })),
        ),
        ...Array.from({ length: 3 }, () => server.rest("DELETE", `${BASE}/webhooks/${id}`, asAdmin())),
      ]);
      for (const response of responses) {
        statuses.add(response.status);
        if (response.status === 404) expect(response.body).toMatchObject({ code: "rest_webhook_invalid_id" });
      }
    }
    expect([...statuses].filter((status) => status !== 200 && status !== 404)).toEqual([]);
  });

  it("refuses bad input with 400 rest_invalid_param naming the field", async () => {
    for (const [body, field] of [
      [{}, "url"],
      [{ url: "not a url" }, "url"],
      [{ url: "ftp://127.0.0.1/x" }, "url"],
      [{ url: RECEIVER, types: ["event", "party"] }, "types"],
      [{ url: RECEIVER, actions: ["exploded"] }, "actions"],
    ] as const) {
      const response = await server.fail("POST /webhooks", 400, { as: admin(), body });
      expect(response.body.code).toMatch(/^rest_(invalid|missing_callback)_param$/);
      expect(JSON.stringify(response.body.data.params)).toContain(field);
    }
  });

  it("lets only administrators manage subscriptions: 401 anonymous, 403 other roles", async () => {
    const created = await subscribe();
    const operations = [
      ["GET", "/webhooks"],
      ["POST", "/webhooks"],
      ["GET", `/webhooks/${created.id}`],
      ["POST", `/webhooks/${created.id}`],
      ["DELETE", `/webhooks/${created.id}`],
      ["POST", `/webhooks/${created.id}/rotate-secret`],
      ["GET", `/webhooks/${created.id}/deliveries`],
    ] as const;
    for (const role of ["editor", "author", "contributor", "subscriber"] as const) {
      for (const [method, path] of operations) {
        const response = await server.rest(method, `${BASE}${path}`, {
          as: server.users[role],
          ...(method === "POST" ? { body: { url: RECEIVER } } : {}),
        });
        expect([role, method, path, response.status, response.body]).toEqual([
          role,
          method,
          path,
          403,
          { code: "rest_forbidden", message: "Sorry, you are not allowed to do that.", data: { status: 403 } },
        ]);
      }
    }
    const anonymous = await server.fail("GET /webhooks", 401, {});
    expect(anonymous.body.code).toBe("rest_forbidden");
    const kept = await server.call("GET /webhooks/{id}", { as: admin(), params: { id: created.id }, status: 200 });
    expect(kept.body.active).toBe(true);
  });

  it("serves the same operations over tRPC and under a language prefix", async () => {
    const rpc = server.client(admin());
    const created = await rpc.webhooks.create.mutate({ url: RECEIVER, types: ["event"] });
    expect(created.secret).toMatch(SECRET);
    const { secret: _secret, ...shown } = created;
    expect(await rpc.webhooks.get.query({ id: created.id })).toEqual(shown);
    const prefixed = await server.call("GET /webhooks/{id}", {
      as: admin(),
      base: `/de${BASE}`,
      params: { id: created.id },
      status: 200,
    });
    expect(prefixed.body).toEqual(shown);
    await expect(server.client(server.users.editor).webhooks.list.query({})).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
  });
});

describe.each(PROVIDERS)("webhook URLs without CALENDAR_WEBHOOKS_ALLOW_INSECURE (%s)", (provider) => {
  const server = useTestServer(provider);

  it("refuses http:// and every URL that resolves to a private, loopback or link-local address", async () => {
    for (const [url, reason] of [
      ["http://example.com/hooks", "Must be an https:// URL."],
      [
        "https://127.0.0.1/hooks",
        "The host 127.0.0.1 resolves to a private, loopback or reserved address (CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers).",
      ],
      [
        "https://localhost/hooks",
        "The host localhost resolves to a private, loopback or reserved address (CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers).",
      ],
      [
        "https://10.1.2.3/hooks",
        "The host 10.1.2.3 resolves to a private, loopback or reserved address (CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers).",
      ],
      [
        "https://192.168.0.10/hooks",
        "The host 192.168.0.10 resolves to a private, loopback or reserved address (CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers).",
      ],
      [
        "https://169.254.169.254/latest",
        "The host 169.254.169.254 resolves to a private, loopback or reserved address (CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers).",
      ],
      [
        "https://[::1]/hooks",
        "The host ::1 resolves to a private, loopback or reserved address (CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers).",
      ],
      [
        "https://[::ffff:10.0.0.1]/hooks",
        "The host ::ffff:a00:1 resolves to a private, loopback or reserved address (CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers).",
      ],
      [
        "https://[fe80::1]/hooks",
        "The host fe80::1 resolves to a private, loopback or reserved address (CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers).",
      ],
    ]) {
      const response = await server.rest("POST", "/cal/events/v1/webhooks", {
        as: server.users.administrator,
        body: { url },
      });
      expect([url, response.status, response.body]).toEqual([
        url,
        400,
        {
          code: "rest_invalid_param",
          message: "Invalid parameter(s): url",
          data: { status: 400, params: { url: reason } },
        },
      ]);
    }
    expect(await server.db.webhookSubscription.count()).toBe(0);
  });
});

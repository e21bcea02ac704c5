import { type Actor, ensureAdmin, revokeTokens } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { createTRPCClient, httpLink } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { trpcFailure } from "./support/errors.ts";
import { type fixtureAppRouter, fixtureRouters } from "./support/fixture-router.ts";
import type { RestErrorBody } from "./support/rest-routes.ts";
import { type RestRequest, useTestServer } from "./support/server.ts";

const WHOAMI = "/cal/events/v1/whoami";

/** What the fixture router's `whoami` answers. */
interface Whoami {
  actor: Actor;
}
const basic = (login: string, token: string) => ({
  authorization: `Basic ${Buffer.from(`${login}:${token}`).toString("base64")}`,
});
const UNAUTHORIZED = { code: "rest_not_logged_in", message: "The token is not valid.", data: { status: 401 } };

describe.each(PROVIDERS)("authentication (%s)", (provider) => {
  const server = useTestServer(provider, { routers: fixtureRouters });
  const whoami = (request: RestRequest = {}) => server.rest<Whoami>("GET", WHOAMI, request);
  /** A refused `whoami`, as the REST error envelope. */
  const refused = (request: RestRequest) => server.rest<RestErrorBody>("GET", WHOAMI, request);

  it("treats a request without credentials as anonymous", async () => {
    expect((await whoami()).body).toEqual({ actor: { kind: "anonymous" } });
  });

  it("authenticates a Bearer token as its user and role", async () => {
    const editor = server.users.editor;
    const { status, body } = await whoami({ as: editor });
    expect(status).toBe(200);
    expect(body).toEqual({ actor: { kind: "user", id: editor.id, login: "editor1", role: "editor" } });
  });

  it("authenticates HTTP Basic login:token like an application password", async () => {
    const author = server.users.author;
    const { body } = await whoami({ as: basic("author1", author.token) });
    expect(body.actor).toEqual({ kind: "user", id: author.id, login: "author1", role: "author" });
  });

  it("answers a wrong token with 401, whatever the scheme and transport", async () => {
    for (const authorization of [
      "Bearer cal_wrong",
      basic("author1", "cal_wrong").authorization,
      basic("nobody", server.users.author.token).authorization,
      "Basic !!!",
      "Digest abc",
    ]) {
      const { status, body } = await refused({ as: { authorization } });
      expect({ authorization, status, code: body.code, data: body.data }).toEqual({
        authorization,
        status: 401,
        code: "rest_not_logged_in",
        data: { status: 401 },
      });
    }
    const wrong = await refused({ as: { authorization: "Bearer cal_wrong" } });
    expect(wrong.body).toEqual(UNAUTHORIZED);
    const client = createTRPCClient<typeof fixtureAppRouter>({
      links: [httpLink({ url: `${server.origin}/trpc`, headers: { authorization: "Bearer cal_wrong" } })],
    });
    const failure = await trpcFailure(client.things.whoami.query({}));
    expect(failure.status).toBe(401);
    expect(failure.code).toBe("rest_not_logged_in");
  });

  it("does not reveal whether a login exists when Basic authentication fails", async () => {
    const unknownLogin = await refused({ as: basic("nobody", "cal_wrong") });
    const knownLogin = await refused({ as: basic("editor1", "cal_wrong") });
    expect(unknownLogin.body).toEqual(knownLogin.body);
    expect(unknownLogin.status).toBe(knownLogin.status);
  });

  it("rejects a revoked token", async () => {
    const contributor = server.users.contributor;
    expect((await whoami({ as: contributor })).status).toBe(200);
    await revokeTokens(server.db, { login: "contributor1" });
    expect((await refused({ as: contributor })).body).toEqual(UNAUTHORIZED);
  });

  it("records when a token was last used", async () => {
    const subscriber = server.users.subscriber;
    await whoami({ as: subscriber });
    const tokens = await server.db.apiToken.findMany({ where: { user: { login: "subscriber1" } } });
    expect(tokens.map((token) => token.lastUsedAt)).toEqual(tokens.map(() => expect.any(Date)));
  });

  it("records the last use as the instant it happened, at most once a minute", async () => {
    const editor = server.users.editor;
    const where = { userId: editor.id };
    const lastUsed = async () => (await server.db.apiToken.findFirstOrThrow({ where })).lastUsedAt;
    await server.db.apiToken.updateMany({ where, data: { lastUsedAt: new Date(Date.now() - 120_000) } });
    const before = Date.now();
    await whoami({ as: editor });
    const recorded = (await lastUsed())?.getTime() ?? 0;
    expect(recorded).toBeGreaterThanOrEqual(before);
    expect(recorded).toBeLessThanOrEqual(Date.now());
    const recent = new Date(Date.now() - 30_000);
    await server.db.apiToken.updateMany({ where, data: { lastUsedAt: recent } });
    await whoami({ as: editor });
    expect(await lastUsed()).toEqual(recent);
  });

  it("bootstraps an administrator 'admin' from CALENDAR_ADMIN_TOKEN, idempotently", async () => {
    const token = "admin-token-0123456789";
    await ensureAdmin(server.db, token);
    await ensureAdmin(server.db, token);
    const { body } = await whoami({ as: { authorization: `Bearer ${token}` } });
    expect(body.actor).toMatchObject({ kind: "user", login: "admin", role: "administrator" });
    expect(await server.db.user.count({ where: { login: "admin" } })).toBe(1);
    expect(await server.db.apiToken.count({ where: { user: { login: "admin" } } })).toBe(1);
  });

  it("stores only the hash of a token", async () => {
    const tokens = await server.db.apiToken.findMany();
    const stored = JSON.stringify(tokens);
    for (const user of Object.values(server.users)) expect(stored).not.toContain(user.token);
  });
});

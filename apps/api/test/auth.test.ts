import { ensureAdmin, revokeTokens } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { fixtureRouters } from "./support/fixture-router.ts";
import { useTestServer } from "./support/server.ts";

const WHOAMI = "/cal/events/v1/whoami";
const basic = (login: string, token: string) => ({
  authorization: `Basic ${Buffer.from(`${login}:${token}`).toString("base64")}`,
});
const UNAUTHORIZED = { code: "rest_not_logged_in", message: "The token is not valid.", data: { status: 401 } };

describe.each(PROVIDERS)("authentication (%s)", (provider) => {
  const server = useTestServer(provider, { routers: fixtureRouters });

  it("treats a request without credentials as anonymous", async () => {
    expect((await server.rest("GET", WHOAMI)).body).toEqual({ actor: { kind: "anonymous" } });
  });

  it("authenticates a Bearer token as its user and role", async () => {
    const editor = server.users.editor;
    const { status, body } = await server.rest("GET", WHOAMI, { as: editor });
    expect(status).toBe(200);
    expect(body).toEqual({ actor: { kind: "user", id: editor.id, login: "editor1", role: "editor" } });
  });

  it("authenticates HTTP Basic login:token like an application password", async () => {
    const author = server.users.author;
    const { body } = await server.rest("GET", WHOAMI, { as: basic("author1", author.token) });
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
      const { status, body } = await server.rest("GET", WHOAMI, { as: { authorization } });
      expect({ authorization, status, code: body.code, data: body.data }).toEqual({
        authorization,
        status: 401,
        code: "rest_not_logged_in",
        data: { status: 401 },
      });
    }
    const wrong = await server.rest("GET", WHOAMI, { as: { authorization: "Bearer cal_wrong" } });
    expect(wrong.body).toEqual(UNAUTHORIZED);
    const error = await (server.client({ ...server.users.author, token: "cal_wrong" }) as any).things.whoami
      .query({})
      .catch((caught: unknown) => caught);
    expect(error.data.httpStatus).toBe(401);
    expect(error.data.domain.code).toBe("rest_not_logged_in");
  });

  it("does not reveal whether a login exists when Basic authentication fails", async () => {
    const unknownLogin = await server.rest("GET", WHOAMI, { as: basic("nobody", "cal_wrong") });
    const knownLogin = await server.rest("GET", WHOAMI, { as: basic("editor1", "cal_wrong") });
    expect(unknownLogin.body).toEqual(knownLogin.body);
    expect(unknownLogin.status).toBe(knownLogin.status);
  });

  it("rejects a revoked token", async () => {
    const contributor = server.users.contributor;
    expect((await server.rest("GET", WHOAMI, { as: contributor })).status).toBe(200);
    await revokeTokens(server.db, { login: "contributor1" });
    expect((await server.rest("GET", WHOAMI, { as: contributor })).body).toEqual(UNAUTHORIZED);
  });

  it("records when a token was last used", async () => {
    const subscriber = server.users.subscriber;
    await server.rest("GET", WHOAMI, { as: subscriber });
    const tokens = await server.db.apiToken.findMany({ where: { user: { login: "subscriber1" } } });
    expect(tokens.map((token) => token.lastUsedAt)).toEqual(tokens.map(() => expect.any(Date)));
  });

  it("bootstraps an administrator 'admin' from CALENDAR_ADMIN_TOKEN, idempotently", async () => {
    const token = "admin-token-0123456789";
    await ensureAdmin(server.db, token);
    await ensureAdmin(server.db, token);
    const { body } = await server.rest("GET", WHOAMI, { as: { authorization: `Bearer ${token}` } });
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

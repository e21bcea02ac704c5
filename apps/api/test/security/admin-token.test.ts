import { createToken, DomainError, ensureAdmin, readChangeVersion, revokeTokens, setUserRole } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

const FIRST = "first-admin-token-0123456789";
const SECOND = "second-admin-token-0123456789";
const UNAUTHORIZED = { code: "rest_not_logged_in", message: "The token is not valid.", data: { status: 401 } };

/** `CALENDAR_ADMIN_TOKEN` at each start, as `main.ts` applies it before the server listens. */
describe.each(PROVIDERS)("the token CALENDAR_ADMIN_TOKEN sets (%s)", (provider) => {
  const server = useTestServer(provider);
  const bearer = (token: string) => ({ as: { authorization: `Bearer ${token}` } });
  /** The status of an administrator's read, over REST and over tRPC. */
  async function statusesOf(token: string): Promise<[number, number]> {
    const rest = await server.rest("GET", "/cal/events/v1/webhooks", bearer(token));
    const rpc = await fetch(`${server.origin}/trpc/webhooks.list?input=%7B%7D`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return [rest.status, rpc.status];
  }
  const environmentTokens = () =>
    server.db.apiToken.findMany({
      where: { name: "CALENDAR_ADMIN_TOKEN" },
      orderBy: { id: "asc" },
      select: { revokedAt: true, user: { select: { login: true } } },
    });

  it("is the only one the environment keeps: changing it revokes the one it set before", async () => {
    expect(await ensureAdmin(server.db, FIRST)).toBe("active");
    expect(await statusesOf(FIRST)).toEqual([200, 200]);
    expect(await ensureAdmin(server.db, SECOND)).toBe("active");
    expect(await statusesOf(SECOND)).toEqual([200, 200]);
    expect(await statusesOf(FIRST)).toEqual([401, 401]);
    expect((await server.rest("GET", "/cal/events/v1/webhooks", bearer(FIRST))).body).toEqual(UNAUTHORIZED);
    expect(await environmentTokens()).toEqual([
      { revokedAt: expect.any(Date), user: { login: "admin" } },
      { revokedAt: null, user: { login: "admin" } },
    ]);
  });

  it("stays revoked at the next start once revoked with the CLI, until the setting names another token", async () => {
    const [active] = await server.db.apiToken.findMany({ where: { name: "CALENDAR_ADMIN_TOKEN", revokedAt: null } });
    await revokeTokens(server.db, { tokenId: active?.id ?? 0 });
    expect(await ensureAdmin(server.db, SECOND)).toBe("revoked");
    expect(await statusesOf(SECOND)).toEqual([401, 401]);
    const third = "third-admin-token-0123456789";
    expect(await ensureAdmin(server.db, third)).toBe("active");
    expect(await statusesOf(third)).toEqual([200, 200]);
  });

  it("is revoked when a start sets none, and leaves the tokens made with the CLI alone", async () => {
    const issued = await createToken(server.db, { login: "admin", name: "ci" });
    expect(await ensureAdmin(server.db, undefined)).toBe("unset");
    expect(await server.db.apiToken.count({ where: { name: "CALENDAR_ADMIN_TOKEN", revokedAt: null } })).toBe(0);
    expect(await statusesOf(issued.token)).toEqual([200, 200]);
  });

  it("writes nothing at a start that finds it as the setting wants it: active, revoked or unset", async () => {
    const token = "fourth-admin-token-0123456789";
    expect(await ensureAdmin(server.db, token)).toBe("active");
    const activeAt = await readChangeVersion(server.db);
    expect(await ensureAdmin(server.db, token)).toBe("active");
    expect(await readChangeVersion(server.db)).toBe(activeAt);
    const [active] = await server.db.apiToken.findMany({ where: { name: "CALENDAR_ADMIN_TOKEN", revokedAt: null } });
    await revokeTokens(server.db, { tokenId: active?.id ?? 0 });
    const revokedAt = await readChangeVersion(server.db);
    expect(await ensureAdmin(server.db, token)).toBe("revoked");
    expect(await ensureAdmin(server.db, undefined)).toBe("unset");
    expect(await readChangeVersion(server.db)).toBe(revokedAt);
    expect(await statusesOf(token)).toEqual([401, 401]);
  });

  it("gives 'admin' the administrator role back at the next start when it lost it", async () => {
    const token = "fifth-admin-token-0123456789";
    expect(await ensureAdmin(server.db, token)).toBe("active");
    await setUserRole(server.db, "admin", "editor");
    const demotedAt = await readChangeVersion(server.db);
    expect(await ensureAdmin(server.db, token)).toBe("active");
    expect(await readChangeVersion(server.db)).toBe(demotedAt + 1);
    expect((await server.db.user.findUniqueOrThrow({ where: { login: "admin" } })).role).toBe("administrator");
    expect(await statusesOf(token)).toEqual([200, 200]);
  });

  it("is a name no token made with the CLI may take", async () => {
    const refused = await createToken(server.db, { login: "admin", name: "CALENDAR_ADMIN_TOKEN" }).catch((e) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect([refused.status, refused.extra]).toEqual([
      400,
      { params: { name: "Is reserved for the token CALENDAR_ADMIN_TOKEN sets." } },
    ]);
  });
});

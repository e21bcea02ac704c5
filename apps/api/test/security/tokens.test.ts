import { createHash } from "node:crypto";
import { revokeTokens } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

const basic = (login: string, token: string) => `Basic ${Buffer.from(`${login}:${token}`).toString("base64")}`;
const NOT_LOGGED_IN = { code: "rest_not_logged_in", message: "The token is not valid.", data: { status: 401 } };

/**
 * Tokens are random (256 bits), stored as their SHA-256 and found by it through a unique index: no secret is
 * compared byte by byte in application code, so how long a comparison takes says nothing about a token.
 * (Event, venue and organizer passwords, which are compared, go through a constant-time comparison of digests.)
 */
describe.each(PROVIDERS)("API tokens (%s)", (provider) => {
  const server = useTestServer(provider);

  it("keeps only the SHA-256 of each token, and finds the user by it", async () => {
    for (const user of Object.values(server.users)) {
      const digest = createHash("sha256").update(user.token, "utf8").digest("hex");
      const rows = await server.db.apiToken.findMany({ where: { userId: user.id }, select: { tokenHash: true } });
      expect(rows).toEqual([{ tokenHash: digest }]);
    }
    const stored = JSON.stringify(await server.db.apiToken.findMany());
    for (const user of Object.values(server.users)) expect(stored).not.toContain(user.token);
  });

  it("answers every failed authentication alike, whether the login exists or not, over REST and tRPC", async () => {
    const { editor, author, contributor } = server.users;
    await revokeTokens(server.db, { login: contributor.login });
    const attempts: Record<string, string> = {
      "unknown bearer token": "Bearer cal_0000000000000000000000000000000000000000000",
      "unknown login": basic("nobody-at-all", "cal_wrong"),
      "known login, wrong token": basic(editor.login, "cal_wrong"),
      "known login, another user's token": basic(editor.login, author.token),
      "revoked token": `Bearer ${contributor.token}`,
      "revoked token with its login": basic(contributor.login, contributor.token),
    };
    const answers: Record<string, unknown> = {};
    for (const [name, authorization] of Object.entries(attempts)) {
      const read = await server.fail("GET /events", 401, { as: { authorization } });
      const write = await server.fail("POST /venues", 401, { as: { authorization }, body: { venue: "Nope" } });
      const rpc = await fetch(`${server.origin}/trpc/venues.create`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({ venue: "Nope" }),
      });
      const rpcBody = (await rpc.json()) as {
        error: { message: string; data: { httpStatus: number; domain: unknown } };
      };
      answers[name] = {
        read: [read.status, read.body],
        write: [write.status, write.body],
        trpc: [rpc.status, rpcBody.error.message, rpcBody.error.data.httpStatus, rpcBody.error.data.domain],
      };
    }
    const same = {
      read: [401, NOT_LOGGED_IN],
      write: [401, NOT_LOGGED_IN],
      trpc: [
        401,
        "The token is not valid.",
        401,
        { code: "rest_not_logged_in", message: "The token is not valid.", status: 401 },
      ],
    };
    expect(answers).toEqual(Object.fromEntries(Object.keys(attempts).map((name) => [name, same])));
    expect(await server.db.venue.count()).toBe(0);
  });
});

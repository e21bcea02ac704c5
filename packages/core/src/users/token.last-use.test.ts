import { describe, expect, it } from "vitest";
import { PROVIDERS, useTestDatabase } from "../testing/index.ts";
import { authenticateToken, createUser } from "./users.service.ts";

describe.each(PROVIDERS)("a token's last use (%s)", (provider) => {
  const database = useTestDatabase(provider);
  const db = () => database.current.handle.db;

  it("does not wait for a transaction that holds the write lock: the use is recorded at a later one", async () => {
    const { token, id } = await createUser(db(), { login: `busy-${provider}`, role: "editor" });
    const lastUsed = async () => (await db().apiToken.findFirstOrThrow({ where: { userId: id } })).lastUsedAt;
    const actor = await db().$transaction(async (tx) => {
      await tx.user.update({ where: { id }, data: { displayName: "Busy" } });
      return authenticateToken(db(), token);
    });
    expect(actor).toMatchObject({ kind: "user", id, role: "editor" });
    if (provider === "sqlite") expect(await lastUsed()).toBeNull();
    await authenticateToken(db(), token);
    expect(await lastUsed()).toEqual(expect.any(Date));
  });
});

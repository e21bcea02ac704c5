import { beforeEach, describe, expect, it } from "vitest";
import { ANONYMOUS } from "../auth/roles.ts";
import { changeRow, create, PROVIDERS, useTestDatabase } from "../testing/index.ts";
import { pruneChanges } from "./change.prune.ts";
import { listChanges } from "./change.service.ts";
import { encodeSyncToken } from "./change.token.ts";

const NOW = new Date("2031-01-31T12:00:00Z");
const OLD = new Date("2030-12-01T12:00:00Z");
const RECENT = new Date("2031-01-30T12:00:00Z");

/** [version, tag id, action, when]: tag 1 changed twice long ago and once lately, tag 2 deleted long ago, tag 3 old. */
const HISTORY = [
  [1, 1, "created", OLD],
  [2, 1, "updated", OLD],
  [3, 2, "created", OLD],
  [4, 2, "deleted", OLD],
  [5, 3, "created", OLD],
  [6, 1, "updated", RECENT],
] as const;

describe.each(PROVIDERS)("pruning the change feed (%s)", (provider) => {
  const database = useTestDatabase(provider);
  const db = () => database.current.handle.db;
  const versions = async () =>
    (await db().change.findMany({ orderBy: { version: "asc" }, select: { version: true } })).map((row) => row.version);

  beforeEach(async () => {
    await db().webhookSubscription.deleteMany();
    await db().change.deleteMany();
    await db().change.createMany({
      data: HISTORY.map(([version, recordId, action, modifiedUtc]) =>
        changeRow({ version, recordId, action, modifiedUtc }),
      ),
    });
    await db().changeVersion.update({ where: { id: 1 }, data: { version: 6 } });
  });

  it("removes the superseded changes and the tombstones older than the retention, keeping each record's latest", async () => {
    expect(await pruneChanges(db(), 30, NOW)).toBe(3);
    expect(await versions()).toEqual([2, 5, 6]);
  });

  it("keeps what an active webhook subscription has not been handed yet", async () => {
    await create.webhookSubscription(db(), { cursor: 2 });
    await create.webhookSubscription(db(), { cursor: 0, active: false });
    expect(await pruneChanges(db(), 30, NOW)).toBe(1);
    expect(await versions()).toEqual([2, 3, 4, 5, 6]);
  });

  it("keeps answering 410 to a token older than the retention, and the feed to a recent one", async () => {
    await pruneChanges(db(), 30, NOW);
    const old = encodeSyncToken({ version: 2, issuedAt: Math.floor(OLD.getTime() / 1000) });
    await expect(listChanges(db(), ANONYMOUS, { since: old, per_page: 100 }, { now: NOW })).rejects.toMatchObject({
      status: 410,
      code: "rest_sync_token_expired",
    });
    const recent = encodeSyncToken({ version: 5, issuedAt: Math.floor(RECENT.getTime() / 1000) - 60 });
    const feed = await listChanges(db(), ANONYMOUS, { since: recent, per_page: 100 }, { now: NOW });
    expect(feed.changes.map((change) => [change.id, change.action])).toEqual([[1, "updated"]]);
  });
});

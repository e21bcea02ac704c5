import { describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles.ts";
import type { Db } from "../db/db.ts";
import { runWrite } from "../db/write.ts";
import { DomainError } from "../errors.ts";
import { createOrganizer, createOrganizerInTx, loadOrganizersById } from "../organizers/organizer.service.ts";
import { createUsersByRole, PROVIDERS, type TestUser, testScope, useTestDatabase } from "../testing/index.ts";
import { createVenue, createVenueInTx, deleteVenue, loadVenuesById } from "../venues/venue.service.ts";

/** The site zone the stamps below are written in. */
const PARIS = { timezone: "Europe/Paris" };

const actorOf = (user: TestUser): Actor => ({ kind: "user", id: user.id, login: user.login, role: user.role });

/** The client with a counter of the queries it sends. */
function countingDb(db: Db) {
  const counter = { queries: 0 };
  const counted = db.$extends({
    query: {
      $allOperations({ args, query }) {
        counter.queries += 1;
        return query(args);
      },
    },
  }) as unknown as Db;
  return { db: counted, counter };
}

describe.each(PROVIDERS)("linked posts: what events build on (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let users: Awaited<ReturnType<typeof createUsersByRole>>;
  const db = () => database.current.handle.db;

  it("presents venues by id in a fixed number of queries, without missing or trashed ones", async () => {
    users = await createUsersByRole(db());
    const editor = testScope(database.current, actorOf(users.editor), "en", PARIS);
    const ids: number[] = [];
    for (const venue of ["Alpha", "Beta", "Gamma", "Delta"]) {
      ids.push((await createVenue(editor, { venue, city: "Lyon", password: venue === "Beta" ? "pw" : "" })).id);
    }
    await deleteVenue(editor, { id: ids[3] as number }, false);
    const { db: counted, counter } = countingDb(db());
    const anonymous = { ...testScope(database.current, { kind: "anonymous" }, "en", PARIS), db: counted };
    const two = await loadVenuesById(counted, anonymous, ids.slice(0, 2), { jsonLd: false });
    const twoQueries = counter.queries;
    counter.queries = 0;
    const all = await loadVenuesById(counted, anonymous, [...ids, 99_999, ids[0] as number], { jsonLd: true });
    expect(counter.queries).toBe(twoQueries);
    expect(twoQueries).toBeLessThanOrEqual(2);
    expect([...all.keys()].sort()).toEqual(ids.slice(0, 3).sort());
    expect(all.get(ids[0] as number)).toMatchObject({ venue: "Alpha", city: "Lyon", json_ld: { "@type": "Place" } });
    expect(all.get(ids[1] as number)).toMatchObject({ venue: "Beta" });
    expect(all.get(ids[1] as number)?.city).toBeUndefined();
    expect(two.get(ids[0] as number)?.json_ld).toBeUndefined();
    const asEditor = await loadVenuesById(db(), editor, [ids[1] as number], { jsonLd: false });
    expect(asEditor.get(ids[1] as number)?.city).toBe("Lyon");
    expect(await loadVenuesById(db(), anonymous, [], { jsonLd: false })).toEqual(new Map());
  });

  it("creates inside the caller's transaction, reuses duplicates and rolls back with the caller", async () => {
    const author = testScope(database.current, actorOf(users.author), "de", PARIS);
    const ids = await db().$transaction(async (tx) => [
      await createOrganizerInTx(tx, author, { organizer: "Kulturamt", email: "a@b.de" }),
      await createOrganizerInTx(tx, author, { organizer: "KULTURAMT" }),
      await createVenueInTx(tx, author, { venue: "Stadthalle", date: "2025-03-01 12:00:00" }),
      await createVenueInTx(tx, author, { venue: "Oper", date_utc: "2025-07-01 10:00:00" }),
      await createVenueInTx(tx, author, { venue: "Kino", date: "1700000000" }),
    ]);
    expect(ids[0]).toBe(ids[1]);
    const presented = await loadOrganizersById(db(), author, ids, { jsonLd: false });
    expect(presented.get(ids[0] as number)).toMatchObject({ organizer: "Kulturamt", email: "a@b.de", language: "de" });
    const dates = await db().venue.findMany({ where: { id: { in: ids.slice(2) } }, orderBy: { id: "asc" } });
    expect(dates.map((venue) => [venue.postDate, venue.postDateUtc.toISOString()])).toEqual([
      ["2025-03-01 12:00:00", "2025-03-01T11:00:00.000Z"],
      ["2025-07-01 12:00:00", "2025-07-01T10:00:00.000Z"],
      ["2023-11-14 23:13:20", "2023-11-14T22:13:20.000Z"],
    ]);
    const failing = db().$transaction(async (tx) => {
      await createVenueInTx(tx, author, { venue: "Never stored" });
      throw new Error("the event write failed");
    });
    await expect(failing).rejects.toThrow("the event write failed");
    expect(await db().venue.count({ where: { name: "Never stored" } })).toBe(0);
    await expect(
      db().$transaction((tx) =>
        createVenueInTx(tx, testScope(database.current, actorOf(users.subscriber), "en", PARIS), { venue: "No" }),
      ),
    ).rejects.toMatchObject({ status: 403, code: "rest_forbidden" });
  });

  it("gives concurrent creates of one name distinct slugs", async () => {
    const editor = testScope(database.current, actorOf(users.editor), "en", PARIS);
    const created = await Promise.all(
      ["one", "two", "three", "four", "five", "six", "seven", "eight"].map((description) =>
        createOrganizer(editor, { organizer: "Crowded", description }),
      ),
    );
    expect(created.map((organizer) => organizer.slug).sort()).toEqual([
      "crowded",
      "crowded-2",
      "crowded-3",
      "crowded-4",
      "crowded-5",
      "crowded-6",
      "crowded-7",
      "crowded-8",
    ]);
  });
});

describe("runWrite", () => {
  const failing = (error: unknown) => {
    let attempts = 0;
    const db = {
      $transaction: async () => {
        attempts += 1;
        throw error;
      },
    } as unknown as Db;
    return { db, attempts: () => attempts };
  };

  it("retries a unique violation and answers 409 when it keeps happening", async () => {
    const { db, attempts } = failing({ code: "P2002" });
    const outcome = await runWrite(db, async () => 1).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(DomainError);
    expect(outcome).toMatchObject({ status: 409, code: "rest_conflict" });
    expect(attempts()).toBe(20);
  });

  it("retries what a concurrent write causes: a row gone (P2003, P2025), a serialization failure (P2034, or at commit)", async () => {
    const commitConflict = Object.assign(new Error("TransactionWriteConflict"), {
      name: "DriverAdapterError",
      cause: { kind: "TransactionWriteConflict" },
    });
    for (const error of [{ code: "P2003" }, { code: "P2025" }, { code: "P2034" }, commitConflict]) {
      let attempts = 0;
      const db = {
        $transaction: async (work: () => Promise<number>) => {
          attempts += 1;
          if (attempts < 3) throw error;
          return work();
        },
      } as unknown as Db;
      expect(await runWrite(db, async () => 7)).toBe(7);
      expect(attempts).toBe(3);
    }
  });

  it("runs the writes of one queue key one after the other, and those of other keys alongside", async () => {
    const events: string[] = [];
    const db = { $transaction: (work: () => Promise<unknown>) => work() } as unknown as Db;
    const write = (name: string, key: string) =>
      runWrite(
        db,
        async () => {
          events.push(`${name} starts`);
          await new Promise((resolve) => setImmediate(resolve));
          events.push(`${name} ends`);
        },
        { queueKey: key },
      );
    await Promise.all([write("a1", "a"), write("a2", "a"), write("b1", "b")]);
    expect(events.indexOf("a2 starts")).toBeGreaterThan(events.indexOf("a1 ends"));
    expect(events.indexOf("b1 starts")).toBeLessThan(events.indexOf("a1 ends"));
  });

  it("passes other failures on at once", async () => {
    const { db, attempts } = failing(new Error("disk full"));
    await expect(runWrite(db, async () => 1)).rejects.toThrow("disk full");
    expect(attempts()).toBe(1);
  });
});

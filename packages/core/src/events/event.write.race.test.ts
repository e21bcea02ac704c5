import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles.ts";
import { createDb, type Db, type DbHandle } from "../db/db.ts";
import type { Scope } from "../scope.ts";
import { createTestActor, testScope, useTestDatabase } from "../testing/index.ts";
import { createEventsInBulk } from "./event.bulk-create.service.ts";
import { createEvent } from "./event.create.service.ts";
import { updateEvent } from "./event.update.service.ts";

type NamedModel = "venue" | "organizer" | "category" | "tag";

/**
 * The client of a second server that stops after its first by-name lookup of `model` (a `nameKey` query) until
 * `resume` is called: the moment another server can create the same name in between.
 */
function pausingAfterNameLookup(db: Db, model: NamedModel) {
  let reach = () => {};
  let resume = () => {};
  const reached = new Promise<void>((resolve) => {
    reach = resolve;
  });
  const resumed = new Promise<void>((resolve) => {
    resume = resolve;
  });
  let armed = true;
  const client = db.$extends({
    query: {
      $allModels: {
        async findMany({ model: queried, args, query }) {
          const rows = await query(args);
          if (armed && queried.toLowerCase() === model && args.where && "nameKey" in args.where) {
            armed = false;
            reach();
            await resumed;
          }
          return rows;
        },
      },
    },
  }) as unknown as Db;
  return { client, reached, resume };
}

/**
 * Two servers on one PostgreSQL database (two clients here) create events naming the same new venue, organizer or
 * term, the second one's lookup running before the first one's commit: the record exists once. (SQLite is the
 * database of one process, whose writes run one at a time.)
 */
describe("event writes naming the same new record from two servers (postgres)", () => {
  const database = useTestDatabase("postgres");
  let other: DbHandle;
  let editor: Actor;

  beforeAll(async () => {
    other = await createDb(database.current.url);
    editor = await createTestActor(database.current.handle.db, "race-editor", "editor");
  });
  afterAll(async () => {
    await other?.close();
  });

  /** An event naming a new record of `model` only (a second one would hold the first one's locks meanwhile). */
  const event = (title: string, model: NamedModel, name: string) => ({
    title,
    start_date: "2031-05-01 19:00:00",
    end_date: "2031-05-01 21:00:00",
    ...{
      venue: { venue: [{ venue: `${name} hall`, city: "Lyon" }] },
      organizer: { organizer: [{ organizer: `${name} club` }] },
      category: { categories: [`${name} night`] },
      tag: { tags: [`${name} tag`] },
    }[model],
  });

  async function countNamed(name: string) {
    const db = database.current.handle.db;
    return {
      venue: await db.venue.count({ where: { name: `${name} hall` } }),
      organizer: await db.organizer.count({ where: { name: `${name} club` } }),
      category: await db.category.count({ where: { name: `${name} night` } }),
      tag: await db.tag.count({ where: { name: `${name} tag` } }),
    };
  }

  /** Server B looks the name up, server A creates it and commits, then B goes on. */
  async function race(
    model: NamedModel,
    writeAsB: (scope: Scope) => Promise<unknown>,
    writeAsA: () => Promise<unknown>,
  ) {
    const paused = pausingAfterNameLookup(other.db, model);
    const second = writeAsB({ ...testScope(database.current, editor), db: paused.client });
    await Promise.race([paused.reached, second]);
    await writeAsA();
    paused.resume();
    await second;
  }

  it.each<NamedModel>(["venue", "organizer", "category", "tag"])(
    "creates the %s named by two racing event creates once",
    async (model) => {
      const name = `Single ${model}`;
      await race(
        model,
        (scope) => createEvent(scope, event(`${name} B`, model, name)),
        () => createEvent(testScope(database.current, editor), event(`${name} A`, model, name)),
      );
      expect(await countNamed(name)).toEqual({ venue: 0, organizer: 0, category: 0, tag: 0, [model]: 1 });
    },
  );

  it("creates the venue named by a racing event update and event create once", async () => {
    const name = "Update venue";
    const plain = { title: "To update", start_date: "2031-05-02 19:00:00", end_date: "2031-05-02 21:00:00" };
    const existing = await createEvent(testScope(database.current, editor), plain);
    const venue = [{ venue: `${name} hall`, city: "Lyon" }];
    await race(
      "venue",
      (scope) => updateEvent(scope, { id: existing.id, venue }),
      () => createEvent(testScope(database.current, editor), event(`${name} A`, "venue", name)),
    );
    expect(await countNamed(name)).toEqual({ venue: 1, organizer: 0, category: 0, tag: 0 });
  });

  it.each<NamedModel>(["category", "tag"])("creates the %s named by two racing bulk creates once", async (model) => {
    const name = `Bulk ${model}`;
    await race(
      model,
      (scope) => createEventsInBulk(scope, [event(`${name} B`, model, name)]),
      () => createEventsInBulk(testScope(database.current, editor), [event(`${name} A`, model, name)]),
    );
    expect(await countNamed(name)).toEqual({ venue: 0, organizer: 0, category: 0, tag: 0, [model]: 1 });
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createDb, readerOf } from "./db.ts";
import { lazyClient } from "./lazy-client.ts";

const created = vi.hoisted(() => ({ clients: 0 }));

vi.mock("../generated/sqlite/client.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../generated/sqlite/client.ts")>();
  class CountedClient extends original.PrismaClient {
    constructor(...args: ConstructorParameters<typeof original.PrismaClient>) {
      super(...args);
      created.clients++;
    }
  }
  return { ...original, PrismaClient: CountedClient };
});

describe("lazyClient", () => {
  it("creates the client when a property is first read, once, with its methods bound to it", () => {
    const create = vi.fn(() => ({
      name: "real",
      nameOf() {
        return this.name;
      },
    }));
    const lazy = lazyClient(create);
    expect(create).not.toHaveBeenCalled();
    expect(lazy.created()).toBeUndefined();
    const { nameOf } = lazy.client;
    expect(nameOf()).toBe("real");
    expect(lazy.client.name).toBe("real");
    expect("nameOf" in lazy.client).toBe(true);
    expect(create).toHaveBeenCalledTimes(1);
    expect(lazy.created()?.name).toBe("real");
  });
});

describe("createDb", () => {
  const dir = mkdtempSync(join(tmpdir(), "calendar-lazy-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("creates Prisma's client at its first use, not for reads on the driver nor to close", async () => {
    const before = created.clients;
    const unused = await createDb(`file:${join(dir, "unused.db")}`);
    expect(await readerOf(unused.db).json("SELECT '1'", [])).toBe("1");
    await unused.close();
    expect(created.clients).toBe(before);

    const used = await createDb(`file:${join(dir, "used.db")}`);
    expect(await used.db.$queryRawUnsafe("SELECT 1 AS one")).toEqual([{ one: 1n }]);
    await used.close();
    expect(created.clients).toBe(before + 1);
  });
});

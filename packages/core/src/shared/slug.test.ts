import { describe, expect, it } from "vitest";
import { uniqueSlugs } from "./slug.ts";

/** A lookup over a set of taken slugs that records each batch of candidates it is asked about. */
function lookup(taken: Iterable<string>) {
  const set = new Set(taken);
  const asked: string[][] = [];
  return {
    asked,
    findTaken: async (candidates: string[]) => {
      asked.push(candidates);
      return candidates.filter((candidate) => set.has(candidate));
    },
  };
}

describe("uniqueSlugs", () => {
  it("gives each base, in order, the first slug free in the database and in the batch", async () => {
    const { findTaken } = lookup(["jazz", "jazz-2", "rock-3"]);
    expect(await uniqueSlugs(["jazz", "rock", "jazz", "rock", "rock", "folk"], findTaken)).toEqual([
      "jazz-3",
      "rock",
      "jazz-4",
      "rock-2",
      "rock-4",
      "folk",
    ]);
  });

  it("never hands out one slug twice, even when a suffixed base names another base", async () => {
    const { findTaken } = lookup(["a"]);
    expect(await uniqueSlugs(["a", "a-2"], findTaken)).toEqual(["a-3", "a-2"]);
  });

  it("asks about candidates in a few rounds, however many earlier slugs a base has", async () => {
    const { findTaken, asked } = lookup(["gig", ...Array.from({ length: 99 }, (_, index) => `gig-${index + 2}`)]);
    expect(await uniqueSlugs(["gig", "gig"], findTaken)).toEqual(["gig-101", "gig-102"]);
    expect(asked.length).toBeLessThanOrEqual(7);
  });

  it("asks nothing for an empty batch", async () => {
    const { findTaken, asked } = lookup([]);
    expect(await uniqueSlugs([], findTaken)).toEqual([]);
    expect(asked).toEqual([]);
  });
});

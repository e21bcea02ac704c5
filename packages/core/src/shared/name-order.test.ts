import { describe, expect, it } from "vitest";
import { byNameThenId } from "./name-order.ts";

describe("byNameThenId", () => {
  it("orders by name without regard to case or accents, then by id", () => {
    const terms = [
      { id: 4, name: "zoo" },
      { id: 3, name: "Éte" },
      { id: 2, name: "ete" },
      { id: 1, name: "Apple" },
    ];
    expect(terms.sort(byNameThenId).map((term) => term.id)).toEqual([1, 2, 3, 4]);
  });
});

import { describe, expect, it } from "vitest";
import { venueRecord } from "../testing/factories.ts";
import { fieldSearchWhere, linkedPostSearchText, searchFieldCount, searchFragments } from "./linked-post.search.ts";

describe("searchFragments", () => {
  it("splits on anything but letters, digits and hyphens, folding case and accents", () => {
    expect(searchFragments("France, Île de")).toEqual(["france", "ile", "de"]);
    expect(searchFragments("http://one.com")).toEqual(["http", "one", "com"]);
    expect(searchFragments("@common.com")).toEqual(["common", "com"]);
    expect(searchFragments("Saint-Denis  2024")).toEqual(["saint-denis", "2024"]);
  });

  it("drops repeated fragments and never keeps LIKE wildcards", () => {
    expect(searchFragments("three@three.com")).toEqual(["three", "com"]);
    expect(searchFragments("100%_off\\now")).toEqual(["100", "off", "now"]);
    expect(searchFragments("%_\\")).toEqual([]);
  });

  it("keeps at most ten fragments", () => {
    expect(searchFragments("a b c d e f g h i j k l")).toHaveLength(10);
  });
});

describe("linkedPostSearchText", () => {
  it("writes name, description, excerpt and the kind's columns one marked line each, markup and case folded", () => {
    const text = linkedPostSearchText(
      venueRecord({ name: "Café Müller", description: "<p>Tanz<br>theater</p>", city: "Wuppertal" }),
      ["city", "zip"],
    );
    expect(text).toBe(
      [
        "\u001f0\u001fcafe muller",
        "\u001f1\u001ftanz theater",
        "\u001f2\u001f",
        "\u001f3\u001fwuppertal",
        "\u001f4\u001f",
        "\u001f5\u001f",
      ].join("\n"),
    );
  });

  it("keeps control characters out, so the markers stay unique", () => {
    const text = linkedPostSearchText(venueRecord({ name: "a\u001f1\u001fb" }), []);
    expect(text.split("\u001f")).toHaveLength(9);
    expect(text).toContain("a 1 b");
  });

  it("counts the common fields with the kind's own", () => {
    expect(searchFieldCount(["city", "email"])).toBe(5);
  });
});

describe("fieldSearchWhere", () => {
  it("asks some single field, between its marker and the next, to contain every fragment", () => {
    expect(fieldSearchWhere(["temple", "avenue"], 2)).toEqual({
      OR: [
        {
          AND: [
            { searchText: { contains: "\u001f0\u001f%temple%\u001f1\u001f" } },
            { searchText: { contains: "\u001f0\u001f%avenue%\u001f1\u001f" } },
          ],
        },
        {
          AND: [
            { searchText: { contains: "\u001f1\u001f%temple%\u001f2\u001f" } },
            { searchText: { contains: "\u001f1\u001f%avenue%\u001f2\u001f" } },
          ],
        },
      ],
    });
  });

  it("matches nothing without a fragment", () => {
    expect(fieldSearchWhere([], 3)).toEqual({ id: { in: [] } });
  });
});

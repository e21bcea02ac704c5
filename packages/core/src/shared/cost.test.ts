import { describe, expect, it } from "vitest";
import { costToStore, parseAmount, presentCost } from "./cost.ts";

describe("costToStore", () => {
  it("keeps a string, writes a number as digits and joins a list with commas", () => {
    expect(costToStore(" 20$ ")).toBe("20$");
    expect(costToStore(12.5)).toBe("12.5");
    expect(costToStore(["0$", "20$", " ", 30])).toBe("0$, 20$, 30");
  });
});

describe("parseAmount", () => {
  it.each([
    ["23", 23],
    ["25,55", 25.55],
    ["6.50", 6.5],
    ["1,000", 1000],
    ["1.000", 1000],
    ["1,000.50", 1000.5],
    ["1.000,50", 1000.5],
    ["1,000,000", 1000000],
    ["0.125", 0.125],
  ])("reads %s as %d", (token, value) => {
    expect(parseAmount(token)).toBe(value);
  });
});

describe("presentCost", () => {
  it("shows nothing for no cost", () => {
    expect(presentCost("")).toEqual({
      cost: "",
      cost_details: { currency_symbol: "", currency_code: "", currency_position: "", values: [] },
    });
  });

  it("finds a postfix symbol", () => {
    expect(presentCost("20$")).toEqual({
      cost: "20$",
      cost_details: { currency_symbol: "$", currency_code: "", currency_position: "postfix", values: ["20"] },
    });
  });

  it("finds a prefix symbol", () => {
    expect(presentCost("$23")).toEqual({
      cost: "$23",
      cost_details: { currency_symbol: "$", currency_code: "", currency_position: "prefix", values: ["23"] },
    });
  });

  it("shows a list including 0 as a range from Free, with every value sorted", () => {
    expect(presentCost(costToStore(["30$", "0$", "20$"]))).toEqual({
      cost: "Free – 30$",
      cost_details: {
        currency_symbol: "$",
        currency_code: "",
        currency_position: "postfix",
        values: ["0", "20", "30"],
      },
    });
  });

  it("normalises decimal separators", () => {
    expect(presentCost("25,55").cost_details.values).toEqual(["25.55"]);
    expect(presentCost("€6.50 - €8.50")).toEqual({
      cost: "€6.50 – €8.50",
      cost_details: { currency_symbol: "€", currency_code: "", currency_position: "prefix", values: ["6.5", "8.5"] },
    });
  });

  it("reads the word free as 0 and keeps text without amounts as written", () => {
    expect(presentCost("free").cost).toBe("Free");
    expect(presentCost("Donation").cost).toBe("Donation");
    expect(presentCost("Donation").cost_details.values).toEqual([]);
  });
});

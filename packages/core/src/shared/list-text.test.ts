import { describe, expect, it } from "vitest";
import { LIST_TEXT_MAX_CHARACTERS, listText, withListTexts } from "./list-text.ts";

const LIMIT = LIST_TEXT_MAX_CHARACTERS;

describe("listText", () => {
  it("keeps a text of up to the limit as it is, astral characters counted once", () => {
    const exact = "x".repeat(LIMIT);
    expect(listText(exact)).toBe(exact);
    const emoji = "🎉".repeat(LIMIT);
    expect(emoji.length).toBe(2 * LIMIT);
    expect(listText(emoji)).toBe(emoji);
  });

  it("cuts a longer text at the limit and ends it with …, never inside a character", () => {
    expect(listText("x".repeat(LIMIT + 1))).toBe(`${"x".repeat(LIMIT)}…`);
    expect(listText("🎉".repeat(LIMIT + 1))).toBe(`${"🎉".repeat(LIMIT)}…`);
  });

  it("leaves no tag or entity half written", () => {
    const before = "x".repeat(LIMIT - 5);
    expect(listText(`${before}<a href="https://example.org/">link</a>`)).toBe(`${before}…`);
    expect(listText(`${before}<b>bold</b>`)).toBe(`${before}<b>bo…`);
    expect(listText(`${before}x&amp;more`)).toBe(`${before}x…`);
    expect(listText(`${before}&lt;;more`)).toBe(`${before}&lt;;…`);
  });

  it("cuts an event's description and excerpt alike", () => {
    const long = "y".repeat(LIMIT + 10);
    expect(withListTexts({ id: 1, description: long, excerpt: "short" })).toEqual({
      id: 1,
      description: `${"y".repeat(LIMIT)}…`,
      excerpt: "short",
    });
  });
});

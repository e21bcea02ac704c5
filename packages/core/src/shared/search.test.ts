import { describe, expect, it } from "vitest";
import { likeSafeSearchText, searchWords } from "./search.ts";

describe("search text", () => {
  it("splits a search into normalized words", () => {
    expect(searchWords("  Café   CONCERT ")).toEqual(["cafe", "concert"]);
  });

  it("keeps one normalized field per line and no control characters", () => {
    expect(likeSafeSearchText(["Grand\u001eOpening", null, "", " Late\tShow "])).toBe("grand opening\nlate show");
    expect(searchWords("a\u001eb")).toEqual(["a", "b"]);
  });

  it("maps LIKE's special characters the same way in stored text and words, so they match literally", () => {
    const stored = likeSafeSearchText(["100% sure", "a_b c\\d"]);
    expect(stored).not.toMatch(/[%_\\]/);
    for (const word of searchWords("100% a_b c\\d")) expect(stored).toContain(word);
    expect(stored).not.toContain(searchWords("a%b")[0]);
  });
});

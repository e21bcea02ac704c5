import { describe, expect, it } from "vitest";
import { idsInLanguage, type Translatable, translationsOf } from "./translations.ts";

const records: Translatable[] = [
  { id: 1, language: "en", translationGroup: "a" },
  { id: 2, language: "de", translationGroup: "a" },
  { id: 3, language: "fr", translationGroup: "a" },
  { id: 4, language: "en", translationGroup: null },
  { id: 5, language: "en", translationGroup: "b" },
];

const membersOf = (groups: string[]) => records.filter((record) => groups.includes(record.translationGroup ?? ""));

describe("translationsOf", () => {
  it("maps each record to the other members of its group by language, in one lookup", async () => {
    const lookups: string[][] = [];
    const map = await translationsOf(records, async (groups) => {
      lookups.push(groups);
      return membersOf(groups);
    });
    expect(lookups).toEqual([["a", "b"]]);
    expect(Object.fromEntries(map)).toEqual({
      1: { de: 2, fr: 3 },
      2: { en: 1, fr: 3 },
      3: { en: 1, de: 2 },
      4: {},
      5: {},
    });
  });
});

describe("idsInLanguage", () => {
  it("replaces records of other languages by their group's member in the language, else keeps them", async () => {
    const lookups: string[][] = [];
    const map = await idsInLanguage(records, "de", async (groups) => {
      lookups.push(groups);
      return membersOf(groups).filter((member) => member.language === "de");
    });
    expect(lookups).toEqual([["a", "b"]]);
    expect(Object.fromEntries(map)).toEqual({ 1: 2, 2: 2, 3: 2, 4: 4, 5: 5 });
  });

  it("looks nothing up when every record is in the language or has no group", async () => {
    const map = await idsInLanguage(records.slice(3), "en", async () => {
      throw new Error("no lookup expected");
    });
    expect(Object.fromEntries(map)).toEqual({ 4: 4, 5: 5 });
  });
});

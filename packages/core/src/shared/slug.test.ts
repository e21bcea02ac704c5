import { describe, expect, it } from "vitest";
import {
  MAX_SLUG_LENGTH,
  removeAccents,
  sanitizeTitleWithDashes,
  slugify,
  slugLookupKeys,
  uniqueSlug,
  uniqueSlugs,
} from "./slug.ts";

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

/**
 * Cases from WordPress' own tests (wordpress-develop, tests/phpunit/tests/formatting/SanitizeTitleWithDashes.php at
 * f40ddb94 and Functions_RemoveAccents_Test.php at 3dc5f30c); combining marks are written as escapes.
 */
describe("sanitizeTitleWithDashes", () => {
  it.each([
    ["Captain <strong>Awesome</strong>", "captain-awesome"],
    ["fran%c3%a7%ois", "fran%c3%a7ois"],
    ["ABC", "abc"],
    ["a          t", "a-t"],
    ["a    \n\n\nt", "a-t"],
    ["a----t----t", "a-t-t"],
    ["a----t----t----", "a-t-t"],
    ["penn & teller bull", "penn-teller-bull"],
    ["No &nbsp; Entities &ndash; Here &amp;", "no-entities-here"],
  ])("display: %j → %j", (input, expected) => {
    expect(sanitizeTitleWithDashes(input, "display")).toBe(expected);
  });

  it.each([
    ["One &amp; Two", "one-two"],
    ["One &#123; Two;", "one-two"],
    ["One Two™;", "one-two"],
    ["One &&amp; Two;", "one-two"],
    ["One&Two", "onetwo"],
    ["don't\u00a0break\u00a0the\u00a0space", "dont-break-the-space"],
    ["don't&nbsp;break&#160;the&nbsp;space", "dont-break-the-space"],
    ["Do – the Dash", "do-the-dash"],
    ["Do the — Dash", "do-the-dash"],
    ["Do &ndash; the &#8211; Dash", "do-the-dash"],
    ["Do &mdash; the &#8212; Dash", "do-the-dash"],
    ["Just ¡a Slug", "just-a-slug"],
    ["Just a Slug¿", "just-a-slug"],
    ["‹Just a Slug›", "just-a-slug"],
    ["«Just a Slug»", "just-a-slug"],
    ["Hey its “Curly Joe”", "hey-its-curly-joe"],
    ["Hey its ‘Curly Joe’", "hey-its-curly-joe"],
    ["Hey its „Curly Joe“", "hey-its-curly-joe"],
    ["Hey its ‚Curly Joe‛", "hey-its-curly-joe"],
    ["Hey its „Curly Joe‟", "hey-its-curly-joe"],
    ["Fancy Title • Amazing", "fancy-title-amazing"],
    ["Just © a Slug", "just-a-slug"],
    ["® Just a Slug", "just-a-slug"],
    ["Just a ° Slug", "just-a-slug"],
    ["Just ™ a Slug", "just-a-slug"],
    ["songs by Lennon/McCartney", "songs-by-lennon-mccartney"],
    ["songs by Lennon//McCartney", "songs-by-lennon-mccartney"],
    ["songs by Lennon///McCartney", "songs-by-lennon-mccartney"],
    ["songs by Lennon/-McCartney", "songs-by-lennon-mccartney"],
    ["//songs by Lennon/McCartney", "songs-by-lennon-mccartney"],
    ["6×7 is 42", "6x7-is-42"],
    ["a\u0304a\u0301a\u030ca\u0300", "aaaa"],
    ["a\u0301a\u0341a\u00b4a\u02ca", "aaaa"],
  ])("save: %j → %j", (input, expected) => {
    expect(sanitizeTitleWithDashes(input, "save")).toBe(expected);
  });

  it("percent-encodes other scripts in lower-case hex and stops before a character that would pass 200", () => {
    expect(sanitizeTitleWithDashes("日本 の Café", "save")).toBe("%e6%97%a5%e6%9c%ac-%e3%81%ae-caf%c3%a9");
    const long = sanitizeTitleWithDashes("日".repeat(100), "save");
    expect(long).toBe("%e6%97%a5".repeat(22));
    expect(long.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
  });
});

describe("removeAccents", () => {
  it.each([
    ["abcdefghijkl", "abcdefghijkl"],
    [
      "ªºÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿ",
      "aoAAAAAAAECEEEEIIIIDNOOOOOOUUUUYTHsaaaaaaaeceeeeiiiidnoooooouuuuythy",
    ],
    [
      "ĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİıĲĳĴĵĶķĸĹĺĻļĽľĿŀŁłŃńŅņŇňŉŊŋŌōŎŏŐőŒœŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŧŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſ",
      "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiIJijJjKkkLlLlLlLlLlNnNnNnnNnOoOoOoOEoeRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs",
    ],
    ["ȘșȚț", "SsTt"],
    ["€", "E"],
    ["£", ""],
    ["ƠơƯư", "OoUu"],
    ["ẦầẰằỀềỒồỜờỪừỲỳ", "AaAaEeOoOoUuYy"],
    ["ẢảẨẩẲẳẺẻỂểỈỉỎỏỔổỞởỦủỬửỶỷ", "AaAaAaEeEeIiOoOoOoUuUuYy"],
    ["ẪẫẴẵẼẽỄễỖỗỠỡỮữỸỹ", "AaAaEeEeOoOoUuYy"],
    ["ẤấẮắẾếỐốỚớỨứ", "AaAaEeOoOoUu"],
    ["ẠạẬậẶặẸẹỆệỊịỌọỘộỢợỤụỰựỴỵ", "AaAaAaEeEeIiOoOoOoUuUuYy"],
    ["āēīōūǖĀĒĪŌŪǕ", "aeiouuAEIOUU"],
    ["áéíóúǘÁÉÍÓÚǗ", "aeiouuAEIOUU"],
    ["ǎěǐǒǔǚǍĚǏǑǓǙ", "aeiouuAEIOUU"],
    ["àèìòùǜÀÈÌÒÙǛ", "aeiouuAEIOUU"],
    ["aɑeiouüAEIOUÜ", "aaeiouuAEIOUU"],
    ["Đđ", "Dd"],
  ])("%j → %j", (input, expected) => {
    expect(removeAccents(input, "en")).toBe(expected);
  });

  it("reads decomposed text as composed (NFD → NFC first)", () => {
    expect(removeAccents("Cafe\u0301 A\u0308", "en")).toBe("Cafe A");
  });

  it("uses the German locale's rules for German records", () => {
    expect(removeAccents("ÄÖÜäöüß", "de")).toBe("AeOeUeaeoeuess");
    expect(removeAccents("ÄÖÜäöüß", "fr")).toBe("AOUaous");
  });
});

describe("slugify", () => {
  it("makes WordPress' slugs: accents removed, other scripts percent-encoded, punctuation dropped", () => {
    expect(slugify("Repair Café", "en")).toBe("repair-cafe");
    expect(slugify("Straße der Ämter", "de")).toBe("strasse-der-aemter");
    expect(slugify("Ærø Æbleskiver", "en")).toBe("aero-aebleskiver");
    expect(slugify("音乐会", "zh-hans")).toBe("%e9%9f%b3%e4%b9%90%e4%bc%9a");
    expect(slugify("Rock & Roll: 2030!", "en")).toBe("rock-roll-2030");
  });

  it("answers item when nothing of the name is left", () => {
    expect(slugify("!!!", "en")).toBe("item");
  });
});

describe("slugLookupKeys", () => {
  it("finds a stored slug by its decoded form, its encoded form and the name it was made of", () => {
    expect(slugLookupKeys("日本", "en")).toEqual(["日本", "%e6%97%a5%e6%9c%ac"]);
    expect(slugLookupKeys("%e6%97%a5%e6%9c%ac", "en")).toEqual(["%e6%97%a5%e6%9c%ac"]);
    expect(slugLookupKeys("Café", "en")).toEqual(["Café", "caf%c3%a9", "cafe"]);
  });
});

describe("uniqueSlug", () => {
  it("shortens a base of the longest length so that base and suffix stay within the bound, octets whole", async () => {
    const base = slugify(`a${"日".repeat(100)}`, "en");
    expect(base).toBe(`a${"%e6%97%a5".repeat(22)}`);
    const slug = await uniqueSlug(base, async (candidate) => candidate === base);
    expect(slug).toBe(`a${"%e6%97%a5".repeat(21)}-2`);
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
  });
});

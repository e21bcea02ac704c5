import { describe, expect, it } from "vitest";
import { replaceTags, stripTags } from "./text.ts";

/** The regular expression stripTags used before it became a scanner: the reference its output must keep. */
const previousStripTags = (html: string) => html.replace(/<[^>]*>/g, " ");

const SAMPLES = [
  "<p>Jazz <strong>im</strong> Park</p>",
  '<p>Eintritt <a href="https://example.org/?a=1&amp;b=2">frei</a>.</p>\n<ul><li>Bier</li><li>Brezeln</li></ul>',
  "<h2>Programm</h2><br /><br>Beginn 20 Uhr &nbsp; Ende 23 Uhr",
  "a < b and c > d",
  "3 << 4 <no closing",
  "> starts with a closing bracket <i>then</i>",
  '<img src="x.png" alt="a > b">after',
  "<!-- a comment -->text<![CDATA[ raw ]]>",
  "no markup at all",
  "",
  "<<<>>>",
  "<a\n href='multi-line'\n>link</a>",
];

describe("stripTags", () => {
  it.each(SAMPLES)("removes the tags of %j as the regular expression did", (html) => {
    expect(stripTags(html)).toBe(previousStripTags(html));
  });

  it("replaces each tag with a space and keeps the text and entities", () => {
    expect(stripTags("<p>Jazz <strong>im</strong> Park &amp; mehr</p>")).toBe(" Jazz  im  Park &amp; mehr ");
  });

  it("takes a tag from a `<` to the next `>`, and keeps a `<` that no `>` follows as text", () => {
    expect(stripTags("1 < 2 <b>bold</b> 3 < 4")).toBe("1  bold  3 < 4");
  });

  it("answers 1 MiB of unclosed `<` at once, unchanged", () => {
    const html = "<".repeat(1024 * 1024);
    const started = performance.now();
    expect(stripTags(html)).toBe(html);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("replaceTags", () => {
  it("puts the replacement where each tag was", () => {
    expect(replaceTags("a<b>b</b>c<br/>", "")).toBe("abc");
    expect(replaceTags("a<b>b</b>c", "|")).toBe("a|b|c");
  });
});

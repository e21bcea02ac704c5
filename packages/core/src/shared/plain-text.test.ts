import { describe, expect, it } from "vitest";
import { LENGTH_MARGIN, plainTextInSlices, plainTextOf } from "./plain-text.ts";

/**
 * What html-to-text 10 (`wordwrap: false`, links hidden when they are their text), which feeds used before, made of
 * ordinary descriptions: the plain text keeps it.
 */
const HTML_TO_TEXT: ReadonlyArray<readonly [html: string, text: string]> = [
  [
    '<p>Eintritt <b>frei</b>, <a href="https://example.org/orgel">Programm</a></p>',
    "Eintritt frei, Programm [https://example.org/orgel]",
  ],
  [
    '<p>Music &amp; more, <a href="https://example.test/x">programme</a></p>',
    "Music & more, programme [https://example.test/x]",
  ],
  ["<p>Night <em>5</em></p>", "Night 5"],
  ["a<div><p>b</p></div>c", "a\n\nb\n\nc"],
  ["<p>a</p>\n\n<p>b</p>\n", "a\n\nb"],
  ["  lead  <b> x </b>  trail ", "lead x trail"],
  ["<p>a<br>b<br><br>c</p>", "a\nb\n\nc"],
  ["<p>a</p><br>b", "a\n\n\nb"],
  ["<p>a<br></p><p>b</p>", "a\n\n\nb"],
  ["Programm:<ul><li>Bach</li><li>Händel</li></ul>Eintritt frei", "Programm:\n * Bach\n * Händel\n\nEintritt frei"],
  ["<ul><li>a<ul><li>b</li><li>c</li></ul></li><li>d</li></ul>", " * a\n   * b\n   * c\n * d"],
  ["<ul><li>a<li>b</ul>", " * a\n * b"],
  ["<ul><li><p>a</p><p>b</p></li><li>c</li></ul>", " * a\n   \n   b\n\n * c"],
  ["<ul><li></li><li>x</li></ul>", " * \n * x"],
  [
    `<ol>${"abcdefghij".replace(/./g, "<li>$&</li>")}</ol>`,
    " 1.  a\n 2.  b\n 3.  c\n 4.  d\n 5.  e\n 6.  f\n 7.  g\n 8.  h\n 9.  i\n 10. j",
  ],
  ["<ol start='3' type='i'><li>a</li><li>b</li></ol>", " iii. a\n iv.  b"],
  ["<p>a<br>b</p><ol><li>x<ol><li>y</li></ol></li></ol>", "a\nb\n\n 1. x\n    1. y"],
  ["<blockquote><p>a</p><p>b</p></blockquote>x", "> a\n> \n> b\n\nx"],
  ["a<blockquote><div>b</div></blockquote>c", "a\n> b\n\nc"],
  ["<h1>T</h1><p>x</p><h3>u</h3>v", "T\n\nx\n\n\nU\n\nv"],
  ["<h2>Hi <a href='https://x.org'>there</a></h2>text", "HI THERE [https://x.org]\n\ntext"],
  ["<a href='mailto:a@b.c'>a@b.c</a> <a href='#top'>top</a> <a href='u'></a>", "a@b.c top u"],
  ["<a href='https://x.org/'>https://x.org/</a>", "https://x.org/"],
  ["<img src='i.png' alt='An image'> <img src='j.png'>", "An image [i.png] [j.png]"],
  ["x<hr>y", `x\n\n${"-".repeat(40)}\n\ny`],
  ["<pre>  a\n   b</pre>c", "  a\n   b\n\nc"],
  ["<script>var x=1;</script><style>p{}</style>z", "z"],
  ["AT&amp;T &nbsp;x &bogus; &#x41;", "AT&T \u00a0x &bogus; A"],
  ["<li>a</li>", "a"],
  ["a<!-- note -->b", "ab"],
];

const MiB = 1 << 20;
const fill = (unit: string) => unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);

describe("plainTextOf", () => {
  it.each(HTML_TO_TEXT)("writes %j as html-to-text did", (html, text) => {
    expect(plainTextOf(html)).toBe(text);
  });

  it("writes table rows on lines of their own, cells apart (html-to-text ran them together)", () => {
    expect(plainTextOf("<table><tr><th>Tag</th><th>Ort</th></tr><tr><td>Mo</td><td>Halle</td></tr></table>")).toBe(
      "Tag Ort\nMo Halle",
    );
  });

  it("reads 10,000 nested elements without recursion, setting apart only the outer 32", () => {
    expect(plainTextOf(`${"<div>".repeat(10_000)}deep${"</div>".repeat(10_000)}after`)).toBe("deep\nafter");
    const quotes = plainTextOf(`${"<blockquote>".repeat(10_000)}deep`);
    expect(quotes).toBe(`${"> ".repeat(32)}deep`);
  });

  it.each([
    ["nested <div>", fill("<div>")],
    ["a run of <a", fill("<a")],
    ["entities", fill("&amp;&#x41;&lt;&nbsp;&bogus;")],
    ["unclosed tags", fill("<b")],
    ["unclosed quoted attributes", fill('<a href="x')],
    ["nested list items with line breaks", fill("<ul><li>x<br>")],
    ["an ordered list of 200,000 items", `<ol>${fill("<li>x")}`],
    ["line breaks in 30 nested quotes", `${"<blockquote>".repeat(30)}${fill("x<br>")}`],
    ["mismatched closing tags", `${fill("<div>").slice(0, MiB / 2)}${fill("</li>").slice(0, MiB / 2)}`],
  ])("converts 1 MiB of %s in linear time to at most twice its length", (_name, html) => {
    const started = performance.now();
    const text = plainTextOf(html);
    // Linear work is well under this even on a loaded machine; html-to-text took 20-35 s or overflowed its stack.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(text.length).toBeLessThanOrEqual(2 * html.length + LENGTH_MARGIN);
  });

  it("gives the same text a slice at a time, pausing between the slices of a long description", async () => {
    const html = `<ol>${"<li><p>Probe &amp; <a href='https://x.org/'>Noten</a></p></li>".repeat(4_000)}</ol>`;
    let pauses = 0;
    const text = await plainTextInSlices(html, async () => {
      pauses += 1;
    });
    expect(text).toBe(plainTextOf(html));
    expect(pauses).toBe(Math.ceil(html.length / 65_536));
  });
});

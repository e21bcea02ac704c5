import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";

/**
 * The plain text of an HTML description, as html-to-text wrote it for feeds (no wrapping): paragraphs and blocks
 * apart by blank lines or line breaks, `<br>` as a line break, list items as ` * ` and ` 1. ` (nested lists
 * indented), `> ` before quoted lines, headings upper-cased, a link as `text [href]` (the address alone when it is
 * the text), an image as `alt [src]`, entities decoded, whitespace collapsed; table rows on lines of their own.
 *
 * One pass of htmlparser2's tokenizer, which reads each character once and keeps no tree: the work is linear in the
 * text and nothing recurses. The elements whose text is set apart (lists, quotes, links, headings, `pre`) are kept
 * on a stack of at most `MAX_DEPTH`; deeper ones only break lines. The answer is at most twice as long as the HTML
 * (plus `LENGTH_MARGIN`): deep lists repeat their indentation on every line. No input makes it throw.
 */

/** Elements set apart at once (an editor's nesting stays far below). */
export const MAX_DEPTH = 32;
/** What a short HTML may grow by (a `<hr>` is a line of 40 dashes). */
export const LENGTH_MARGIN = 1_000;
/** The longest HTML whose ordered lists are aligned when their labels differ in width (it takes a second pass). */
export const MAX_ALIGNED_LENGTH = 100_000;

/** The line breaks before and after a block element's text (html-to-text's defaults; table rows are ours). */
const BLOCKS: Record<string, readonly [leading: number, trailing: number]> = {
  p: [2, 2],
  pre: [2, 2],
  blockquote: [2, 2],
  table: [2, 2],
  ul: [2, 2],
  ol: [2, 2],
  hr: [2, 2],
  h1: [3, 2],
  h2: [3, 2],
  h3: [3, 2],
  h4: [2, 2],
  h5: [2, 2],
  h6: [2, 2],
  li: [1, 1],
  tr: [1, 1],
  ...Object.fromEntries(
    ["article", "aside", "div", "footer", "form", "header", "main", "nav", "section"].map((tag) => [tag, [1, 1]]),
  ),
};
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const CELLS = new Set(["td", "th"]);
/** Elements whose content is not text (the tokenizer reads it as one run up to the closing tag). */
const HIDDEN = new Set(["script", "style"]);
/** The attributes read, of the elements that use them. */
const ATTRIBUTES: Record<string, ReadonlySet<string>> = {
  a: new Set(["href"]),
  img: new Set(["alt", "src"]),
  ol: new Set(["start", "type"]),
};
const NO_ATTRIBUTES = new Map<string, string>();
/** html-to-text's whitespace (space, tab, CR, LF, form feed, zero-width space): words are what lies between. */
const WHITESPACE = new Set([0x20, 0x09, 0x0d, 0x0a, 0x0c, 0x200b]);
const HORIZONTAL_LINE = "-".repeat(40);

interface List {
  kind: "list";
  tag: string;
  nested: boolean;
  /** Of `ol`: which one in the text it is (its labels' width is measured by a first pass), its next number and style. */
  ordinal: number;
  next: number;
  type: string;
  width: number;
}
/** A link, and how much of its text so far is its address (`same`: all of what was `seen`). */
interface Link {
  kind: "link";
  tag: "a";
  href: string;
  seen: number;
  same: boolean;
}
type Container =
  | List
  | Link
  | { kind: "item"; tag: "li"; list: List; label: string; started: boolean }
  | { kind: "quote" | "pre" | "heading"; tag: string };

const ROMAN: ReadonlyArray<readonly [number, string]> = [
  [1000, "M"],
  [900, "CM"],
  [500, "D"],
  [400, "CD"],
  [100, "C"],
  [90, "XC"],
  [50, "L"],
  [40, "XL"],
  [10, "X"],
  [9, "IX"],
  [5, "V"],
  [4, "IV"],
  [1, "I"],
];

function roman(value: number): string {
  let rest = value;
  let text = "";
  for (const [amount, digits] of ROMAN) {
    while (rest >= amount) {
      text += digits;
      rest -= amount;
    }
  }
  return text;
}

function letters(value: number): string {
  let rest = value;
  let text = "";
  while (rest > 0) {
    const digit = (rest - 1) % 26;
    text = String.fromCharCode(97 + digit) + text;
    rest = (rest - digit - 1) / 26;
  }
  return text;
}

/** An `ol` item's number as its `type` writes it (numbers beyond what the style can write are written in digits). */
function numberLabel(value: number, type: string): string {
  if ((type === "i" || type === "I") && value >= 1 && value < 4000) {
    return type === "i" ? roman(value).toLowerCase() : roman(value);
  }
  if ((type === "a" || type === "A") && value >= 1) return type === "a" ? letters(value) : letters(value).toUpperCase();
  return String(value);
}

/** `start` as a number an item label can hold (html-to-text read anything else as NaN). */
function startOf(start: string | undefined): number {
  const value = Number.parseInt(start ?? "1", 10);
  return Number.isSafeInteger(value) && Math.abs(value) < 1e9 ? value : 1;
}

class PlainTextWriter {
  private readonly parts: string[] = [];
  private length = 0;
  private readonly containers: Container[] = [];
  /** `continuations[n]`: the prefix of the first n containers on their later lines. */
  private readonly continuations: string[] = [""];
  /** The innermost open link: the words written in it are compared with its address. */
  private link: Link | undefined;
  /** Elements not set apart because the stack was full, by tag: their closing tags pop nothing. */
  private readonly overflow = new Map<string, number>();
  private written = false;
  /** Line breaks `<br>` asked for since the last text, and the most the blocks closed since then asked for. */
  private hardBreaks = 0;
  private trailing = 0;
  /** The leading breaks of the innermost block opened since the last text (an outer block's are replaced by it). */
  private leading = 0;
  private space = false;
  private lineHasWords = false;
  /** How many containers were open at the last text and are still open: the prefix of the blank lines before the next. */
  private kept = 0;
  private hidden = false;
  private uppercase = 0;
  private pre = 0;
  private ordinals = 0;
  /** The widest label of each `ol` (by ordinal), as this pass found them. */
  readonly widths: number[] = [];
  /** Did a list's labels grow wider after its first (then its earlier items were written narrower)? */
  misaligned = false;

  constructor(
    private readonly limit: number,
    private readonly knownWidths: readonly number[],
  ) {}

  toString(): string {
    while (this.containers.length) this.pop();
    return this.parts.join("");
  }

  private get full(): boolean {
    return this.length >= this.limit;
  }

  private push(text: string): void {
    if (this.full) return;
    const piece = text.slice(0, this.limit - this.length);
    this.parts.push(piece);
    this.length += piece.length;
  }

  /** What a container puts before each line of its text but the first. */
  private static continuation(container: Container): string {
    if (container.kind === "quote") return "> ";
    if (container.kind !== "item") return "";
    return " ".repeat(Math.max(container.label.length, container.list.width));
  }

  /** The prefix of a line in the first `count` containers, each as on a line after its first. */
  private blankPrefix(count: number): string {
    return this.continuations[count] ?? "";
  }

  /**
   * The prefix of the next line of text: the containers open at the last text as on their later lines, the ones
   * opened since (their first line) with their bullets.
   */
  private linePrefix(): string {
    let text = this.blankPrefix(this.kept);
    for (let index = this.kept; index < this.containers.length; index++) {
      const container = this.containers[index];
      if (!container) continue;
      if (container.kind === "item" && !container.started) {
        text += container.label.padEnd(Math.max(container.label.length, container.list.width));
        container.started = true;
      } else text += PlainTextWriter.continuation(container);
    }
    return text;
  }

  /** Ends the line and writes the blank lines asked for, then the next line's prefix: the place for text. */
  private breakLines(): void {
    const breaks = this.written ? this.hardBreaks + Math.max(this.trailing, this.leading) : 0;
    if (breaks > 0) {
      this.push(`\n${`${this.blankPrefix(this.kept)}\n`.repeat(breaks - 1)}${this.linePrefix()}`);
      this.lineHasWords = false;
    } else if (!this.written) this.push(this.linePrefix());
    this.written = true;
    this.hardBreaks = this.trailing = this.leading = 0;
    this.kept = this.containers.length;
  }

  private word(word: string, fromText: boolean): void {
    if (this.full) return;
    this.breakLines();
    if (this.space && this.lineHasWords) this.push(" ");
    this.push(fromText && this.uppercase > 0 ? word.toUpperCase() : word);
    this.space = false;
    this.lineHasWords = true;
    const link = fromText ? this.link : undefined;
    if (link) {
      link.same &&= link.href.startsWith(word, link.seen);
      link.seen += word.length;
    }
  }

  /** Text as inline words: whitespace collapsed to one space between words, none at a line's start. */
  private words(text: string, fromText = true): void {
    let start = -1;
    for (let index = 0; index <= text.length; index++) {
      const blank = index === text.length || WHITESPACE.has(text.charCodeAt(index));
      if (!blank) {
        if (start === -1) start = index;
        continue;
      }
      if (start !== -1) this.word(text.slice(start, index), fromText);
      start = -1;
      if (index < text.length) this.space = true;
    }
  }

  text(text: string): void {
    if (this.hidden || text === "" || this.full) return;
    if (this.pre === 0) {
      this.words(text);
      return;
    }
    const lines = text.split("\n");
    lines.forEach((line, index) => {
      if (index > 0) this.hardBreaks += 1;
      if (line === "") return;
      this.breakLines();
      this.push(line);
      this.lineHasWords = true;
    });
  }

  /** A `<br>` first in a list item ends the line of its bullet. */
  private lineBreak(): void {
    if (this.containers.some((container) => container.kind === "item" && !container.started)) this.breakLines();
    this.hardBreaks += 1;
  }

  private block(tag: string, edge: 0 | 1, nested = false): void {
    const breaks = BLOCKS[tag];
    if (!breaks) return;
    const count = nested && (tag === "ul" || tag === "ol") ? 1 : breaks[edge];
    if (edge === 0) this.leading = count;
    else this.trailing = Math.max(this.trailing, count);
  }

  private open(container: Container): boolean {
    if (this.containers.length >= MAX_DEPTH) {
      this.overflow.set(container.tag, (this.overflow.get(container.tag) ?? 0) + 1);
      return false;
    }
    this.containers.push(container);
    this.continuations[this.containers.length] =
      this.blankPrefix(this.containers.length - 1) + PlainTextWriter.continuation(container);
    if (container.kind === "link") this.link = container;
    if (container.kind === "heading") this.uppercase += 1;
    if (container.kind === "pre") this.pre += 1;
    return true;
  }

  private pop(): void {
    const container = this.containers.pop();
    this.kept = Math.min(this.kept, this.containers.length);
    if (!container) return;
    if (container === this.link) this.link = this.containers.findLast((open): open is Link => open.kind === "link");
    if (container.kind === "heading") this.uppercase -= 1;
    if (container.kind === "pre") this.pre -= 1;
    if (container.kind === "list" && container.tag === "ol") this.widths[container.ordinal] = container.width;
    if (container.kind === "item" && !container.started) {
      // An empty item still has its bullet, as html-to-text writes it.
      this.containers.push(container);
      this.breakLines();
      this.containers.pop();
      this.kept = this.containers.length;
    }
    if (container.kind === "link" && container.href && !(container.same && container.seen === container.href.length)) {
      if (container.seen > 0) this.space = true;
      this.word(container.seen > 0 ? `[${container.href}]` : container.href, false);
    }
    this.block(container.tag, 1, container.kind === "list" && container.nested);
  }

  private list(tag: string, attributes: ReadonlyMap<string, string>): List {
    const nested = this.containers.at(-1)?.kind === "item";
    const ordinal = tag === "ol" ? this.ordinals++ : -1;
    return {
      kind: "list",
      tag,
      nested,
      ordinal,
      next: startOf(attributes.get("start")),
      type: attributes.get("type") ?? "1",
      width: this.knownWidths[ordinal] ?? 0,
    };
  }

  private item(): Container | undefined {
    for (let index = this.containers.length - 1; index >= 0; index--) {
      const container = this.containers[index];
      if (container?.kind === "item") {
        // An open item of the same list ends where the next begins.
        this.close("li");
        break;
      }
      if (container?.kind === "list") break;
    }
    const list = this.containers.at(-1);
    if (list?.kind !== "list") return undefined;
    const label = list.tag === "ol" ? ` ${numberLabel(list.next++, list.type)}. ` : " * ";
    const shown = list.nested ? label.trimStart() : label;
    if (list.width > 0 && shown.length > list.width) this.misaligned = true;
    list.width = Math.max(list.width, shown.length);
    return { kind: "item", tag: "li", list, label: shown, started: false };
  }

  openTag(tag: string, attributes: ReadonlyMap<string, string>): void {
    if (HIDDEN.has(tag)) this.hidden = true;
    if (tag === "br") this.lineBreak();
    if (CELLS.has(tag)) this.space = true;
    if (tag === "img") {
      const alt = attributes.get("alt") ?? "";
      const src = attributes.get("src") ?? "";
      this.words(src ? `${alt}${alt ? " " : ""}[${src}]` : alt, false);
      return;
    }
    if (tag === "li") {
      const item = this.item();
      if (item) {
        this.block(tag, 0);
        this.open(item);
      }
      return;
    }
    const isList = tag === "ul" || tag === "ol";
    const container = isList ? this.list(tag, attributes) : this.containerOf(tag, attributes);
    this.block(tag, 0, container?.kind === "list" && container.nested);
    if (container) this.open(container);
    if (tag === "hr") {
      this.word(HORIZONTAL_LINE, false);
      this.block(tag, 1);
    }
  }

  private containerOf(tag: string, attributes: ReadonlyMap<string, string>): Container | undefined {
    if (tag === "blockquote") return { kind: "quote", tag };
    if (tag === "pre") return { kind: "pre", tag };
    if (HEADINGS.has(tag)) return { kind: "heading", tag };
    if (tag !== "a") return undefined;
    const href = (attributes.get("href") ?? "").replace(/^mailto:/, "");
    return { kind: "link", tag, href: href.startsWith("#") ? "" : href, seen: 0, same: true };
  }

  close(tag: string): void {
    if (HIDDEN.has(tag)) this.hidden = false;
    const overflow = this.overflow.get(tag) ?? 0;
    if (overflow > 0) {
      this.overflow.set(tag, overflow - 1);
      this.block(tag, 1);
      return;
    }
    const index = this.containers.findLastIndex((container) => container.tag === tag);
    if (index === -1) {
      this.block(tag, 1);
      return;
    }
    while (this.containers.length > index) this.pop();
  }
}

/** Feeds the tokenizer's events to a writer: tag names, the attributes it reads, text with entities decoded. */
function tokenizerOf(html: string, writer: PlainTextWriter): Tokenizer {
  let tag = "";
  let attributes: Map<string, string> = NO_ATTRIBUTES;
  let attribute: string | undefined;
  let value = "";
  let text: string[] = [];
  const slice = (start: number, end: number) => html.slice(start, end);
  // Text and the entities in it come in pieces: written as one run, its words are split once.
  const flush = () => {
    if (text.length === 0) return;
    writer.text(text.join(""));
    text = [];
  };
  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      flush();
      tag = slice(start, end).toLowerCase();
      attributes = ATTRIBUTES[tag] ? new Map() : NO_ATTRIBUTES;
    },
    onattribname(start, end) {
      const name = slice(start, end).toLowerCase();
      attribute = ATTRIBUTES[tag]?.has(name) ? name : undefined;
      value = "";
    },
    onattribdata(start, end) {
      if (attribute) value += slice(start, end);
    },
    onattribentity(codepoint) {
      if (attribute) value += String.fromCodePoint(codepoint);
    },
    onattribend() {
      if (attribute && !attributes.has(attribute)) attributes.set(attribute, value);
      attribute = undefined;
    },
    onopentagend() {
      writer.openTag(tag, attributes);
    },
    onselfclosingtag() {
      writer.openTag(tag, attributes);
    },
    onclosetag(start, end) {
      flush();
      const name = slice(start, end).toLowerCase();
      // `</br>` and `</p>` without their opening tag are read as browsers read them.
      if (name === "br") writer.openTag(name, NO_ATTRIBUTES);
      else writer.close(name);
    },
    ontext(start, end) {
      text.push(slice(start, end));
    },
    ontextentity(codepoint) {
      text.push(String.fromCodePoint(codepoint));
    },
    oncdata() {},
    oncomment() {},
    ondeclaration() {},
    onprocessinginstruction() {},
    onend: flush,
  };
  return new Tokenizer({ decodeEntities: true }, callbacks);
}

/** The HTML the tokenizer reads at a time: `plainTextInSlices` may let other work run between two. */
const SLICE_LENGTH = 64 * 1024;

/** One pass, a slice of the HTML a step (the tokenizer's indices are the whole text's, as the writer reads them). */
function* renderSteps(html: string, widths: readonly number[]): Generator<void, PlainTextWriter> {
  const writer = new PlainTextWriter(2 * html.length + LENGTH_MARGIN, widths);
  const tokenizer = tokenizerOf(html, writer);
  for (let start = 0; start < html.length; start += SLICE_LENGTH) {
    tokenizer.write(html.slice(start, start + SLICE_LENGTH));
    yield;
  }
  tokenizer.end();
  return writer;
}

/**
 * The plain text, a slice of the HTML a step. An ordered list's labels are aligned to its widest, known only at its
 * end: a text whose lists have labels of several widths is written twice, the second time with the widths (up to
 * `MAX_ALIGNED_LENGTH`; a longer one is written once, its labels as wide as each needs).
 */
function* textSteps(html: string): Generator<void, string> {
  const first = yield* renderSteps(html, []);
  if (!first.misaligned || html.length > MAX_ALIGNED_LENGTH) return first.toString();
  return (yield* renderSteps(html, first.widths)).toString();
}

/** The plain text of an HTML description (see above). */
export function plainTextOf(html: string): string {
  const steps = textSteps(html);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** `plainTextOf`, awaiting `pause()` after each slice of the HTML: a long description lets other requests run. */
export async function plainTextInSlices(html: string, pause: () => Promise<void>): Promise<string> {
  const steps = textSteps(html);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

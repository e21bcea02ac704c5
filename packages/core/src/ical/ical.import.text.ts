import ICAL from "ical.js";
import type { Slices } from "../shared/time-slices.ts";

/**
 * The content lines one `ICAL.parse` call reads at most (a component longer than that is read whole): parsing a
 * 10 MiB file of small events in one call holds the event loop for seconds.
 */
const PIECE_LINES = 5_000;

/** The line ranges of the VCALENDAR's own properties and of each of its components, when its nesting is sound. */
interface Outline {
  /** The VCALENDAR's property lines. */
  own: string[];
  /** Each component directly in the VCALENDAR: its lines, BEGIN and END included. */
  children: string[][];
}

const BEGIN = /^begin:/i;
const END = /^end:/i;

/**
 * The VCALENDAR's outline, or undefined when the text is not one VCALENDAR with matching BEGIN and END lines (a
 * folded line starts with a space or tab, so only content lines can match).
 */
function outlineOf(text: string): Outline | undefined {
  const lines = text.split(/\r?\n/);
  while (lines.at(-1) === "") lines.pop();
  const [first, ...inner] = lines;
  const last = inner.pop();
  if (!first || !last || first.toLowerCase() !== "begin:vcalendar" || last.toLowerCase() !== "end:vcalendar") {
    return undefined;
  }
  const outline: Outline = { own: [], children: [] };
  let current: string[] | undefined;
  let depth = 0;
  for (const line of inner) {
    if (BEGIN.test(line)) {
      if (depth === 0) {
        current = [];
        outline.children.push(current);
      }
      depth += 1;
    } else if (END.test(line)) {
      depth -= 1;
      if (depth < 0) return undefined;
    }
    if (depth === 0 && !END.test(line)) {
      if (!line.startsWith(" ") && !line.startsWith("\t")) current = undefined;
      (current ?? outline.own).push(line);
    } else current?.push(line);
  }
  return depth === 0 ? outline : undefined;
}

/** Consecutive components of about `size` lines together (a longer one alone). */
function piecesOf(children: readonly string[][], size: number): string[][] {
  const pieces: string[][] = [];
  let lines = size;
  for (const child of children) {
    if (lines >= size) {
      pieces.push([]);
      lines = 0;
    }
    pieces.at(-1)?.push(...child);
    lines += child.length;
  }
  return pieces;
}

const wrapped = (lines: readonly string[]) => ["BEGIN:VCALENDAR", ...lines, "END:VCALENDAR"].join("\r\n");

/**
 * The file as ical.js reads it, parsed in pieces of whole components, the event loop given back between them. A
 * text that is not one well-nested VCALENDAR is parsed in one call, so that ical.js names what is wrong with it.
 * Throws ical.js' errors.
 */
export async function parseInPieces(text: string, slices: Slices): Promise<ICAL.Component> {
  const outline = outlineOf(text);
  if (!outline) return new ICAL.Component(ICAL.parse(text));
  // jCal: [name, properties, components]; each piece's components join the calendar's.
  const calendar: unknown[] = ICAL.parse(wrapped(outline.own));
  const components = calendar[2];
  if (!Array.isArray(components)) return new ICAL.Component(ICAL.parse(text));
  for (const piece of piecesOf(outline.children, PIECE_LINES)) {
    await slices.pause();
    const [, , found] = ICAL.parse(wrapped(piece));
    if (Array.isArray(found)) for (const component of found) components.push(component);
  }
  return new ICAL.Component(calendar);
}

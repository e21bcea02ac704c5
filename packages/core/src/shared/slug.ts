import { stripTags } from "./text.ts";

/**
 * Slugs are made as WordPress makes them (`sanitize_title` in the "save" context: `remove_accents`, then
 * `sanitize_title_with_dashes`), ported from wp-includes/formatting.php (docs/behaviour.md, "Slugs"), so that a site
 * moving over keeps its URLs: "Repair Café" → "repair-cafe", "日本" → "%e6%97%a5%e6%9c%ac".
 */

/** WordPress' `remove_accents` table (its UTF-8 branch): Latin-1 Supplement, Latin Extended-A/B, Vietnamese, Pinyin. */
const ACCENTS: Record<string, string> = {
  ...pairs("ªºÀÁÂÃÄÅ", "aoAAAAAA"),
  Æ: "AE",
  ...pairs("ÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖÙÚÛÜÝ", "CEEEEIIIIDNOOOOOUUUUY"),
  Þ: "TH",
  ß: "s",
  ...pairs("àáâãäå", "aaaaaa"),
  æ: "ae",
  ...pairs("çèéêëìíîïðñòóôõöøùúûüý", "ceeeeiiiidnoooooouuuuy"),
  þ: "th",
  ...pairs("ÿØ", "yO"),
  ...pairs("ĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİı", "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIi"),
  Ĳ: "IJ",
  ĳ: "ij",
  ...pairs("ĴĵĶķĸĹĺĻļĽľĿŀŁłŃńŅņŇňŉŊŋŌōŎŏŐő", "JjKkkLlLlLlLlLlNnNnNnnNnOoOoOo"),
  Œ: "OE",
  œ: "oe",
  ...pairs("ŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŧŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſ", "RrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs"),
  ...pairs("ȘșȚț", "SsTt"),
  "€": "E",
  "£": "",
  ...pairs("ƠơƯư", "OoUu"),
  ...pairs("ẦầẰằỀềỒồỜờỪừỲỳ", "AaAaEeOoOoUuYy"),
  ...pairs("ẢảẨẩẲẳẺẻỂểỈỉỎỏỔổỞởỦủỬửỶỷ", "AaAaAaEeEeIiOoOoOoUuUuYy"),
  ...pairs("ẪẫẴẵẼẽỄễỖỗỠỡỮữỸỹ", "AaAaEeEeOoOoUuYy"),
  ...pairs("ẤấẮắẾếỐốỚớỨứ", "AaAaEeOoOoUu"),
  ...pairs("ẠạẬậẶặẸẹỆệỊịỌọỘộỢợỤụỰựỴỵ", "AaAaAaEeEeIiOoOoOoUuUuYy"),
  ...pairs("ɑǕǖǗǘǍǎǏǐǑǒǓǔǙǚǛǜ", "aUuUuAaIiOoUuUuUu"),
};

/** The German locales' replacements (WordPress applies them for every `de…` locale). */
const GERMAN: Record<string, string> = { Ä: "Ae", ä: "ae", Ö: "Oe", ö: "oe", Ü: "Ue", ü: "ue", ß: "ss" };

/** The table of each language, and the pattern that finds its keys (one character each). */
const ACCENT_TABLES = new Map<string, { table: Record<string, string>; pattern: RegExp }>();

function pairs(from: string, to: string): Record<string, string> {
  const source = [...from];
  const target = [...to];
  if (source.length !== target.length) throw new Error(`Unequal accent table: ${from}`);
  return Object.fromEntries(source.map((character, index) => [character, target[index] ?? ""]));
}

function accentTable(language: string): { table: Record<string, string>; pattern: RegExp } {
  const key = language === "de" ? "de" : "";
  const known = ACCENT_TABLES.get(key);
  if (known) return known;
  const table = key === "de" ? { ...ACCENTS, ...GERMAN } : ACCENTS;
  const pattern = new RegExp(`[${Object.keys(table).join("")}]`, "gu");
  const made = { table, pattern };
  ACCENT_TABLES.set(key, made);
  return made;
}

/**
 * WordPress' `remove_accents` for a record in `language`: the text in NFC (WordPress normalizes decomposed text
 * first), then each character of the table replaced. The locale rules follow the record's language: of ours, only
 * German has its own (ä → ae, ß → ss).
 */
export function removeAccents(text: string, language: string): string {
  if (!/[\u0080-\uffff]/.test(text)) return text;
  const { table, pattern } = accentTable(language);
  return text.normalize("NFC").replace(pattern, (character) => table[character] ?? character);
}

/** The longest slug, in bytes of its percent-encoded form (WordPress' `utf8_uri_encode( $title, 200 )`). */
export const MAX_SLUG_LENGTH = 200;

/**
 * WordPress' `utf8_uri_encode`: every non-ASCII character as its UTF-8 octets in lower-case `%xx`, cut before the
 * first character that would make the result longer than `length`.
 */
function utf8UriEncode(text: string, length: number): string {
  let encoded = "";
  for (const character of text) {
    const piece = character.charCodeAt(0) < 0x80 ? character : percentOctets(character);
    if (encoded.length + piece.length > length) break;
    encoded += piece;
  }
  return encoded;
}

function percentOctets(character: string): string {
  return [...new TextEncoder().encode(character)].map((octet) => `%${octet.toString(16)}`).join("");
}

/** Encoded characters that the "save" context removes: soft hyphen, ¡ ¿, angle and curly quotes, •, © ® ° … ™, acute, grave, macron and caron accents, and invisible characters. */
const SAVE_STRIPPED = [
  "%c2%ad",
  "%c2%a1",
  "%c2%bf",
  "%c2%ab",
  "%c2%bb",
  "%e2%80%b9",
  "%e2%80%ba",
  "%e2%80%98",
  "%e2%80%99",
  "%e2%80%9c",
  "%e2%80%9d",
  "%e2%80%9a",
  "%e2%80%9b",
  "%e2%80%9e",
  "%e2%80%9f",
  "%e2%80%a2",
  "%c2%a9",
  "%c2%ae",
  "%c2%b0",
  "%e2%80%a6",
  "%e2%84%a2",
  "%c2%b4",
  "%cb%8a",
  "%cc%81",
  "%cd%81",
  "%cc%80",
  "%cc%84",
  "%cc%8c",
  "%e2%80%8b",
  "%e2%80%8c",
  "%e2%80%8d",
  "%e2%80%8e",
  "%e2%80%8f",
  "%e2%80%aa",
  "%e2%80%ab",
  "%e2%80%ac",
  "%e2%80%ad",
  "%e2%80%ae",
  "%ef%bb%bf",
];

/** Encoded characters and entities that the "save" context turns into hyphens: no-break space, en and em dashes, the spaces that have a width, the line and paragraph separators. */
const SAVE_HYPHENATED = [
  "%c2%a0",
  "%e2%80%93",
  "%e2%80%94",
  "&nbsp;",
  "&#160;",
  "&ndash;",
  "&#8211;",
  "&mdash;",
  "&#8212;",
  "/",
  ...["80", "81", "82", "83", "84", "85", "86", "87", "88", "89", "8a", "a8", "a9", "af"].map(
    (last) => `%e2%80%${last}`,
  ),
];

function replaceAll(text: string, needles: readonly string[], replacement: string): string {
  return needles.reduce((result, needle) => result.split(needle).join(replacement), text);
}

/**
 * WordPress' `sanitize_title_with_dashes`: tags stripped, escaped octets kept, other characters lower-cased and
 * percent-encoded (at most `MAX_SLUG_LENGTH` long), then only `%`, a–z, 0–9, `_` and `-` left, runs of whitespace
 * and hyphens as one hyphen. The "save" context (writes) also drops or hyphenates the typographic characters of
 * its lists; the "display" context is the lookup form (`sanitize_title_for_query`).
 */
export function sanitizeTitleWithDashes(title: string, context: "save" | "display"): string {
  let slug = stripTags(title)
    .replace(/%([a-fA-F0-9][a-fA-F0-9])/g, "---$1---")
    .replaceAll("%", "")
    .replace(/---([a-fA-F0-9][a-fA-F0-9])---/g, "%$1");
  slug = utf8UriEncode(slug.toLowerCase(), MAX_SLUG_LENGTH).toLowerCase();
  if (context === "save") {
    slug = replaceAll(slug, SAVE_HYPHENATED, "-");
    slug = replaceAll(slug, SAVE_STRIPPED, "");
    slug = slug.replaceAll("%c3%97", "x");
  }
  return slug
    .replace(/&.+?;/g, "")
    .replaceAll(".", "-")
    .replace(/[^%a-z0-9 _-]/g, "")
    .replace(/[ \t\n\v\f\r]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The slug WordPress would store for a record of `language` named `text` (`sanitize_title`). A name with nothing
 * left (only punctuation) gets "item": WordPress falls back to the post's id, which a write does not know yet.
 */
export function slugify(text: string, language: string): string {
  return sanitizeTitleWithDashes(removeAccents(text, language), "save") || "item";
}

/**
 * The slugs a by-slug path or a slug filter may name, most exact first: the slug as sent (already percent-decoded),
 * its lookup form as WordPress' `sanitize_title_for_query` makes it (so `/events/by-slug/日本` finds
 * `%e6%97%a5%e6%9c%ac`), and the slug a write would make of it (so `Café` finds `cafe`).
 */
export function slugLookupKeys(slug: string, language: string): string[] {
  return [...new Set([slug, sanitizeTitleWithDashes(slug, "display"), slugify(slug, language)])];
}

/** The first record `find` answers for the keys of `slugLookupKeys`, tried in their order (at most three lookups). */
export async function findBySlug<T>(
  slug: string,
  language: string,
  find: (key: string) => Promise<T | null>,
): Promise<T | null> {
  for (const key of slugLookupKeys(slug, language)) {
    const found = await find(key);
    if (found !== null) return found;
  }
  return null;
}

/**
 * `base` with the suffix `-<n>` (none for 1), the base shortened so that the whole stays within `MAX_SLUG_LENGTH`
 * without cutting an encoded octet (WordPress' `_truncate_post_slug`).
 */
function suffixed(base: string, suffix: number): string {
  if (suffix === 1) return base;
  const ending = `-${suffix}`;
  return `${truncateSlug(base, MAX_SLUG_LENGTH - ending.length)}${ending}`;
}

function truncateSlug(slug: string, length: number): string {
  if (slug.length <= length) return slug;
  if (!slug.includes("%")) return slug.slice(0, length);
  let decoded: string;
  try {
    decoded = decodeURIComponent(slug);
  } catch {
    return slug.slice(0, length).replace(/%[0-9a-f]?$/, "");
  }
  return utf8UriEncode(decoded, length).toLowerCase();
}

/**
 * The first free slug of `base`, `base-2`, `base-3`, … for which `isTaken` is false. `isTaken` checks the
 * resource and language at hand (slugs are unique per resource and language; the database enforces it too).
 */
export async function uniqueSlug(base: string, isTaken: (slug: string) => Promise<boolean>): Promise<string> {
  if (!(await isTaken(base))) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = suffixed(base, suffix);
    if (!(await isTaken(candidate))) return candidate;
  }
}

/**
 * `uniqueSlug` for a batch: each base gets the first of `base`, `base-2`, … that is neither taken (`findTaken`
 * answers which of a list of candidates are) nor given to another one of the batch; of equal bases, the earlier
 * gets the lower suffix. The candidates are looked up in rounds of growing size, so a batch costs a few queries
 * rather than one per slug.
 */
export async function uniqueSlugs(
  bases: readonly string[],
  findTaken: (candidates: string[]) => Promise<Iterable<string>>,
): Promise<string[]> {
  const slugs: Array<string | undefined> = bases.map(() => undefined);
  const given = new Set<string>();
  const nextSuffix = new Map<string, number>();
  for (let window = 1; slugs.includes(undefined); window *= 2) {
    const waiting = bases.flatMap((base, index) => (slugs[index] === undefined ? [{ base, index }] : []));
    const waitingPerBase = new Map<string, number>();
    for (const { base } of waiting) waitingPerBase.set(base, (waitingPerBase.get(base) ?? 0) + 1);
    const candidatesOf = new Map<string, string[]>();
    for (const [base, count] of waitingPerBase) {
      const first = nextSuffix.get(base) ?? 1;
      const needed = count * window;
      candidatesOf.set(
        base,
        Array.from({ length: needed }, (_, offset) => suffixed(base, first + offset)),
      );
      nextSuffix.set(base, first + needed);
    }
    const taken = new Set(await findTaken([...candidatesOf.values()].flat()));
    const cursor = new Map<string, number>();
    for (const { base, index } of waiting) {
      const candidates = candidatesOf.get(base) ?? [];
      let at = cursor.get(base) ?? 0;
      while (at < candidates.length && (taken.has(candidates[at] ?? "") || given.has(candidates[at] ?? ""))) at++;
      const free = candidates[at];
      cursor.set(base, at + 1);
      if (free === undefined) continue;
      given.add(free);
      slugs[index] = free;
    }
  }
  return slugs.map((slug) => slug ?? "");
}

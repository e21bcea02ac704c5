/**
 * What a list shows of long texts (docs/behaviour.md, "Bounds"): a description or excerpt of an event, or of a venue
 * or organizer (listed, or embedded in a listed event), longer than `LIST_TEXT_MAX_CHARACTERS` is cut there, at a
 * boundary that leaves no tag or entity half written, and ends with "…"; the record's own read (`rest_url`) gives it
 * whole. One list page then costs at most 50 times that per text, whatever the records hold, where 50 events of
 * 1 MiB made a 52 MB answer.
 */
export const LIST_TEXT_MAX_CHARACTERS = 4_096;

/** The long texts of events, venues and organizers that lists show. */
const LONG_TEXT_COLUMNS = new Set(["description", "excerpt"]);
/** Read with the rows of single reads but never shown: a list leaves it empty. */
const UNSHOWN_COLUMNS = new Set(["searchText"]);

const SURROGATE = /[\uD800-\uDFFF]/;

/** An entity longer than this is no entity: an `&` further back is left alone. */
const MAX_ENTITY_LENGTH = 32;

/**
 * `[column, expression]` for each column, the long texts read only as far as a list shows them, and one character
 * more, which tells `listText` that the text goes on.
 */
export function listTextColumns(alias: string, columns: readonly string[]): Array<readonly [string, string]> {
  return columns.map((column) => {
    const value = `${alias}."${column}"`;
    if (UNSHOWN_COLUMNS.has(column)) return [column, "''"];
    return [column, LONG_TEXT_COLUMNS.has(column) ? `substr(${value}, 1, ${LIST_TEXT_MAX_CHARACTERS + 1})` : value];
  });
}

/** Where the first `count` characters of `text` end: a surrogate pair is one character, as the database counts. */
function endOfCharacters(text: string, count: number): number {
  if (!SURROGATE.test(text.slice(0, count))) return count;
  let end = 0;
  for (let characters = 0; characters < count && end < text.length; characters++) {
    const unit = text.charCodeAt(end);
    end += unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return end;
}

/** `text` as a list shows it: whole up to `LIST_TEXT_MAX_CHARACTERS` characters, else cut and ending with "…". */
export function listText(text: string): string {
  if (text.length <= LIST_TEXT_MAX_CHARACTERS) return text;
  const end = endOfCharacters(text, LIST_TEXT_MAX_CHARACTERS);
  if (end >= text.length) return text;
  let cut = text.slice(0, end);
  const tag = cut.lastIndexOf("<");
  if (tag > cut.lastIndexOf(">")) cut = cut.slice(0, tag);
  const entity = cut.lastIndexOf("&");
  if (entity > cut.lastIndexOf(";") && cut.length - entity <= MAX_ENTITY_LENGTH) cut = cut.slice(0, entity);
  return `${cut}…`;
}

/** The record with its shown long texts (description, excerpt) as a list shows them. */
export function withListTexts<T extends { description: string; excerpt: string }>(record: T): T {
  return { ...record, description: listText(record.description), excerpt: listText(record.excerpt) };
}

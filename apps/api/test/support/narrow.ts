/** Narrowing for typed response bodies: each throws, failing the test, when the body is not of the expected form. */

/** The one item of a field that is an object for one item and a list otherwise (an event's `venue`). */
export function single<T extends object>(value: T | T[]): T {
  if (Array.isArray(value)) throw new Error(`Expected one item, got a list: ${JSON.stringify(value)}`);
  return value;
}

/** The first item of a list. */
export function first<T>(items: readonly T[]): T {
  const [item] = items;
  if (item === undefined) throw new Error("Expected at least one item, got an empty list.");
  return item;
}

/** A value that is `false` when absent (an event's `image`). */
export function present<T>(value: T | false): T {
  if (value === false) throw new Error("Expected a value, got false.");
  return value;
}

/** What a search (`find`) must have found. */
export function found<T>(item: T | undefined): T {
  if (item === undefined) throw new Error("Expected to find an item, found none.");
  return item;
}

/** The items of a field that is a list unless it holds one item (an event's `venue`). */
export function many<T extends object>(value: T | T[]): T[] {
  if (!Array.isArray(value)) throw new Error(`Expected a list, got one item: ${JSON.stringify(value)}`);
  return value;
}

/** The item at `index` of a list that must be long enough. */
export function itemAt<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`Expected an item at ${index}, got ${items.length} items.`);
  return item;
}

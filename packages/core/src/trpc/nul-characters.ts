import { invalidParam } from "../errors.ts";

/**
 * PostgreSQL text cannot hold the character U+0000 (a query that carries one fails), and no field of the
 * calendar needs it: input that has it anywhere is a client error, on both databases alike.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Does the value hold U+0000 in any string or key, at any depth? (No recursion: input may be nested deeply.) */
function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === "string") {
      if (current.includes("\u0000")) return true;
    } else if (typeof current === "object" && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes("\u0000")) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** The top-level parameter of `input` that holds U+0000, if any (`input` when it is not an object). */
function parameterWithNul(input: unknown): string | undefined {
  if (!isRecord(input)) return containsNul(input) ? "input" : undefined;
  for (const [name, value] of Object.entries(input)) {
    if (containsNul(name) || containsNul(value)) return name;
  }
  return undefined;
}

/**
 * Throws the 400 of input with U+0000, naming the parameter that holds it: the one check of procedure input and of
 * every route's path parameters (the server applies it to those before any route runs).
 */
export function rejectNulCharacters(input: unknown): void {
  const name = parameterWithNul(input);
  if (name !== undefined) throw invalidParam(name, "Must not contain the character U+0000.");
}

/**
 * The deepest nesting of arrays and objects a JSON body may have. No operation takes more than a few levels, and
 * tRPC serializes bodies again recursively, so a body nested thousands of levels deep would overflow the stack.
 */
export const MAX_JSON_DEPTH = 64;

/** Is `value` nested deeper than `max` levels? (No recursion, for the same reason.) */
export function isNestedTooDeeply(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const current = pending.pop();
    if (!current || typeof current.value !== "object" || current.value === null) continue;
    if (current.depth >= max) return true;
    for (const item of Object.values(current.value)) pending.push({ value: item, depth: current.depth + 1 });
  }
  return false;
}

import { normalizeText } from "./text.ts";

/**
 * A URL name from a title, as WordPress' sanitize_title: lower case, letters of any script and digits kept
 * (accents too: "Für alle" → "für-alle"), everything else collapsed into single hyphens.
 */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 190);
  return slug || normalizeText(text).replace(/\s+/g, "-") || "item";
}

/**
 * The first free slug of `base`, `base-2`, `base-3`, … for which `isTaken` is false. `isTaken` checks the
 * resource and language at hand (slugs are unique per resource and language; the database enforces it too).
 */
export async function uniqueSlug(base: string, isTaken: (slug: string) => Promise<boolean>): Promise<string> {
  if (!(await isTaken(base))) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}-${suffix}`;
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

function suffixed(base: string, suffix: number): string {
  return suffix === 1 ? base : `${base}-${suffix}`;
}

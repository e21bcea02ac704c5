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

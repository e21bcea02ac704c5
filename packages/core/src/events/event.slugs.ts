import type { Tx } from "../db/db.ts";
import { slugify, uniqueSlugs } from "../shared/slug.ts";

/** The first free slug for `wanted` among the events of the language (see `freeEventSlugs`). */
export async function freeEventSlug(tx: Tx, language: string, wanted: string, selfId?: number): Promise<string> {
  const base = slugify(wanted, language);
  const [slug = base] = await freeEventSlugs(tx, language, [wanted], selfId);
  return slug;
}

const SLUGS_PER_LOOKUP = 10_000;

/**
 * The first free slugs for each of `wanted` among the events of the language, distinct from each other: a few
 * lookups of growing batches of candidates (`-2`, `-3`, …) rather than one per candidate, so that the hundredth
 * event of a title stays cheap.
 */
export async function freeEventSlugs(
  tx: Tx,
  language: string,
  wanted: readonly string[],
  selfId?: number,
): Promise<string[]> {
  return uniqueSlugs(
    wanted.map((title) => slugify(title, language)),
    async (candidates) => {
      const taken: string[] = [];
      for (let start = 0; start < candidates.length; start += SLUGS_PER_LOOKUP) {
        const rows = await tx.event.findMany({
          where: { language, slug: { in: candidates.slice(start, start + SLUGS_PER_LOOKUP) }, NOT: { id: selfId } },
          select: { slug: true },
        });
        taken.push(...rows.map((row) => row.slug));
      }
      return taken;
    },
  );
}

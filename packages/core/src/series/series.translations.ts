import { randomUUID } from "node:crypto";
import type { Tx } from "../db/db.ts";
import { inBatches } from "../shared/bulk-insert.ts";

/**
 * A translation of a series is a series (docs/behaviour.md, "Languages and translations"): the series share a
 * translation group, and each occurrence joins the translation group of the occurrences of the other languages
 * with the same original start.
 */

/**
 * Makes a new series a translation of the series its first occurrence was written as a translation of (through
 * `translation_of`), when that event is an occurrence of one. In the caller's transaction.
 */
export async function joinSeriesGroup(
  tx: Tx,
  seriesId: number,
  first: { id: number; translationGroup: string | null },
) {
  if (first.translationGroup === null) return;
  const translated = await tx.event.findFirst({
    where: { translationGroup: first.translationGroup, id: { not: first.id }, seriesId: { not: null } },
    select: { series: { select: { id: true, translationGroup: true } } },
  });
  const other = translated?.series;
  if (!other) return;
  const group = other.translationGroup ?? randomUUID();
  if (other.translationGroup === null) {
    await tx.eventSeries.update({ where: { id: other.id }, data: { translationGroup: group } });
  }
  await tx.eventSeries.update({ where: { id: seriesId }, data: { translationGroup: group } });
  await pairOccurrences(tx, seriesId);
}

/**
 * Pairs the occurrences of a series that have no translation yet with the occurrences of its translations that
 * start at the same original start, where that language is free in their group. A series holds a bounded number of
 * occurrences (`SeriesLimits.maxOccurrences`), so this is at most that many pairs per language, written in batches
 * that give the event loop back.
 */
export async function pairOccurrences(tx: Tx, seriesId: number): Promise<void> {
  const series = await tx.eventSeries.findUniqueOrThrow({
    where: { id: seriesId },
    select: { translationGroup: true },
  });
  if (series.translationGroup === null) return;
  const live = { status: { not: "trash" } } as const;
  const select = { id: true, language: true, translationGroup: true, originalStartUtc: true } as const;
  const mine = await tx.event.findMany({ where: { seriesId, translationGroup: null, ...live }, select });
  if (mine.length === 0) return;
  const theirs = await tx.event.findMany({
    where: {
      series: { translationGroup: series.translationGroup, id: { not: seriesId } },
      originalStartUtc: { in: mine.flatMap((event) => (event.originalStartUtc ? [event.originalStartUtc] : [])) },
      ...live,
    },
    select,
  });
  const groups = [...new Set(theirs.flatMap((event) => (event.translationGroup ? [event.translationGroup] : [])))];
  const taken = new Set(
    (
      await tx.event.findMany({
        where: { translationGroup: { in: groups } },
        select: { translationGroup: true, language: true },
      })
    ).map((member) => `${member.translationGroup} ${member.language}`),
  );
  const theirsAt = new Map<number, typeof theirs>();
  for (const event of theirs) {
    const at = event.originalStartUtc?.getTime();
    if (at !== undefined) theirsAt.set(at, [...(theirsAt.get(at) ?? []), event]);
  }
  await inBatches(mine, async (batch) => {
    for (const occurrence of batch) {
      const at = occurrence.originalStartUtc?.getTime();
      const partner = (at === undefined ? undefined : theirsAt.get(at))?.find(
        (event) => !taken.has(`${event.translationGroup} ${occurrence.language}`),
      );
      if (!partner) continue;
      const group = partner.translationGroup ?? randomUUID();
      if (partner.translationGroup === null) {
        await tx.event.update({ where: { id: partner.id }, data: { translationGroup: group } });
        partner.translationGroup = group;
        taken.add(`${group} ${partner.language}`);
      }
      await tx.event.update({ where: { id: occurrence.id }, data: { translationGroup: group } });
      taken.add(`${group} ${occurrence.language}`);
    }
  });
}

import { requireCapability, requireEdit } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import type { Tx } from "../db/db.ts";
import { domainError } from "../errors.ts";
import type { ChargeEvents } from "../scope.ts";
import { EVENT_TERM_LINKS } from "../terms/term.counts.ts";
import type { Site } from "../trpc/context.ts";
import { seriesLimitsOf } from "./series.create.ts";
import { frameOf, recurrenceLines } from "./series.rule.ts";
import { endSeriesBefore, storedRule } from "./series.split.ts";
import { deleteOccurrences, trashOccurrences } from "./series.trash.ts";

/** Deleting occurrences of a series (docs/behaviour.md, "Editing and deleting occurrences"). */

interface AddressedOccurrence {
  id: number;
  seriesId: number;
  status: string;
  originalStartLocal: string | null;
}

/** `this`: the series' rule no longer gives the occurrence's original start (an EXDATE), in the caller's transaction. */
export async function excludeOccurrence(tx: Tx, event: AddressedOccurrence, site: Site): Promise<void> {
  const series = await tx.eventSeries.findUnique({ where: { id: event.seriesId } });
  if (!series || event.originalStartLocal === null) return;
  const rule = storedRule(series, seriesLimitsOf(site));
  const exdates = [...new Set([...rule.exdates, event.originalStartLocal])].sort();
  await tx.eventSeries.update({
    where: { id: series.id },
    data: { recurrence: JSON.stringify(recurrenceLines({ ...rule, exdates }, frameOf(series))) },
  });
}

export interface SeriesDelete {
  event: AddressedOccurrence;
  recurrenceScope: "following" | "all";
  force: boolean;
  actor: Actor;
  site: Site;
  now: Date;
  chargeEvents?: ChargeEvents | undefined;
}

/**
 * `following` ends the series before the occurrence (an UNTIL) and deletes it and the later ones; `all` deletes every
 * occurrence, and with `force` the series. To the trash, or with `force` permanently; every occurrence is checked
 * as a single delete would be before anything is written. `following` at the series' first start is `all`.
 */
export async function deleteSeriesOccurrences(tx: Tx, request: SeriesDelete): Promise<void> {
  const { event, force, actor, site, now } = request;
  if (!force && event.status === "trash") throw domainError("event-is-in-trash");
  if (force) requireCapability(actor, "delete_permanently");
  const series = await tx.eventSeries.findUniqueOrThrow({ where: { id: event.seriesId } });
  const cut = event.originalStartLocal;
  const endsAt = request.recurrenceScope === "following" && cut !== null && cut > series.startLocal ? cut : null;
  const targets = await tx.event.findMany({
    where: {
      seriesId: series.id,
      ...(!force && { status: { not: "trash" } }),
      ...(endsAt !== null && { originalStartLocal: { gte: endsAt } }),
    },
    include: EVENT_TERM_LINKS,
  });
  for (const target of targets) requireEdit(actor, target);
  request.chargeEvents?.({ written: targets.length - 1, created: 0 });
  if (endsAt !== null) await endSeriesBefore(tx, series, endsAt, seriesLimitsOf(site));
  const ids = targets.map((target) => target.id);
  if (!force) {
    await trashOccurrences(tx, ids, site.timezone, now);
    return;
  }
  await deleteOccurrences(tx, ids);
  if (endsAt === null) await tx.eventSeries.delete({ where: { id: series.id } });
}

import { randomUUID } from "node:crypto";
import type { Actor } from "../auth/roles.ts";
import { canRead } from "../auth/visibility.ts";
import type { Tx } from "../db/db.ts";
import { invalidParam } from "../errors.ts";
import { requireTranslationRights } from "../shared/translations.ts";
import { uniqueIds } from "./event.write.ts";

/** How an event write joins the translation group of `translation_of` (docs/behaviour.md, "Languages and translations"). */

export interface TranslationPlan {
  group: string;
  /** The event translated, when it starts a new group with this write. */
  startsGroupOf?: number;
}

type TranslationTarget = { id: number; language: string; translationGroup: string | null };

/**
 * Joining the translation group of `translation_of`, for one or many writes in `language`: the target must be
 * another event that the actor can see and that is not in the trash, and its group must not yet have an event in
 * `language` (counting the earlier writes of the batch), else a 400 naming `translation_of`; the actor must be
 * allowed to edit the target, else `rest_forbidden`. Several writes
 * translating the same event for the first time share the group the first one starts.
 */
export async function planTranslations(
  tx: Tx,
  actor: Actor,
  targetIds: ReadonlyArray<number | undefined>,
  language: string,
  selfId: number | undefined,
): Promise<Array<TranslationPlan | undefined>> {
  const wanted = uniqueIds(targetIds.filter((id): id is number => id !== undefined));
  if (!wanted.length) return targetIds.map(() => undefined);
  const targets = await tx.event.findMany({
    where: { id: { in: wanted } },
    select: { id: true, language: true, translationGroup: true, status: true, authorId: true },
  });
  const targetOf = new Map(targets.map((target) => [target.id, target]));
  const members = await groupMembers(tx, targets);
  const started = new Map<number, string>();
  return targetIds.map((targetId) => {
    if (targetId === undefined) return undefined;
    const target = targetOf.get(targetId);
    if (!target || target.id === selfId || target.status === "trash" || !canRead(actor, target)) {
      throw invalidParam("translation_of", `No other event with the id ${targetId}.`);
    }
    const plan = translationPlanOf(target, started);
    const group = members.get(plan.group) ?? [target];
    if (group.some((member) => member.language === language && member.id !== selfId)) {
      throw invalidParam("translation_of", `Event ${targetId} already has a translation in "${language}".`);
    }
    requireTranslationRights(actor, target, "event");
    members.set(plan.group, [...group, { id: undefined, language }]);
    return plan;
  });
}

type GroupMember = { id: number | undefined; language: string };

/** The members of the targets' existing translation groups, by group. */
async function groupMembers(tx: Tx, targets: readonly TranslationTarget[]): Promise<Map<string, GroupMember[]>> {
  const groups = [...new Set(targets.flatMap((target) => (target.translationGroup ? [target.translationGroup] : [])))];
  const rows = groups.length
    ? await tx.event.findMany({
        where: { translationGroup: { in: groups } },
        select: { id: true, language: true, translationGroup: true },
      })
    : [];
  const members = new Map<string, GroupMember[]>();
  for (const row of rows) {
    if (row.translationGroup) members.set(row.translationGroup, [...(members.get(row.translationGroup) ?? []), row]);
  }
  return members;
}

/** The group a translation of `target` joins: its own, or the one an earlier write of the batch started, or a new one. */
function translationPlanOf(target: TranslationTarget, started: Map<number, string>): TranslationPlan {
  if (target.translationGroup) return { group: target.translationGroup };
  const group = started.get(target.id);
  if (group) return { group };
  const fresh = randomUUID();
  started.set(target.id, fresh);
  return { group: fresh, startsGroupOf: target.id };
}

/** Starts the group a plan made for the event translated, when this write is its first translation. */
export async function joinGroup(tx: Tx, plan: TranslationPlan | undefined): Promise<void> {
  if (plan?.startsGroupOf !== undefined) {
    await tx.event.update({ where: { id: plan.startsGroupOf }, data: { translationGroup: plan.group } });
  }
}

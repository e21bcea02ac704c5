import { z } from "zod";
import { can } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import { invalidParam } from "../errors.ts";
import { listItems } from "./query.ts";

/** The publication statuses of events, venues and organizers (trash only through DELETE). */
export const WRITABLE_STATUSES = ["publish", "future", "draft", "pending", "private"] as const;
export const writableStatus = z.enum(WRITABLE_STATUSES).meta({ description: "Publication status." });
export type WritableStatus = z.infer<typeof writableStatus>;

/** The `status` list filter: one status or several (array or CSV), each a known one. */
export const statusFilter = z
  .preprocess(
    (value: string[] | string) => (value === undefined ? value : listItems(value)),
    z.array(z.enum([...WRITABLE_STATUSES, "trash"])).min(1),
  )
  .meta({ description: "Only items with these statuses (editors: any; others: publish only)." });

/** A Prisma `where` fragment on `status`/`authorId`, valid for events, venues and organizers. */
export type StatusWhere =
  | { status: { in: string[] } }
  | { status: string }
  | { status: { not: string } }
  | { OR: Array<{ status: string } | { authorId: number; status: { not: string } }> };

/**
 * Which statuses a list shows (docs/behaviour.md, "Event lists"): editors see everything but trash unless they ask;
 * others may ask only for `publish` (anything else is 400) and otherwise see published items plus their own
 * unpublished ones.
 */
export function listStatusWhere(actor: Actor, requested: string[] | undefined): StatusWhere {
  if (can(actor, "read_private_posts")) {
    return requested ? { status: { in: requested } } : { status: { not: "trash" } };
  }
  if (requested && !(requested.length === 1 && requested[0] === "publish")) {
    throw invalidParam("status", "Only editors may list items that are not published.");
  }
  if (requested || actor.kind === "anonymous") return { status: "publish" };
  return { OR: [{ status: "publish" }, { authorId: actor.id, status: { not: "trash" } }] };
}

/** Would a list show this item to the actor without a `status` filter (`listStatusWhere(actor, undefined)`)? */
export function isListedFor(actor: Actor, item: { status: string; authorId: number | null }): boolean {
  if (can(actor, "read_private_posts")) return item.status !== "trash";
  if (actor.kind === "anonymous") return item.status === "publish";
  return item.status === "publish" || (item.authorId === actor.id && item.status !== "trash");
}

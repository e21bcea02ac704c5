import { invalidParam } from "../errors.ts";
import { can, canEdit, type OwnedPost } from "./capabilities.ts";
import { passwordMatches } from "./password-protection.ts";
import type { Actor } from "./roles.ts";

/**
 * Who sees a post (an event, a venue or an organizer; docs/behaviour.md, "Roles and capabilities" and
 * "Password-protected records"). Each rule is here twice, side by side so that they cannot drift apart: as a
 * predicate for a record in hand and as a Prisma `where` for a statement (the three kinds share the `status`,
 * `authorId` and `password` columns). Nothing else decides visibility: per-kind rules (an event and the records
 * it links) are built from these.
 */

/** The fields of a post that decide who sees it and its details. */
export interface GuardedPost extends OwnedPost {
  password: string;
}

/** A `where` over the columns every post has, valid for events, venues and organizers. */
export type PostWhere =
  | { status: string | { in: string[] } | { not: string } | { notIn: string[] } }
  | { authorId: number; status?: { not: string } | { notIn: string[] } }
  | { password: string }
  | { OR: PostWhere[] }
  | { AND: PostWhere[] };

// Reading a post at all: its status.

/** May the actor read this post? Published ones are public; the rest need ownership or editor rights. */
export function canRead(actor: Actor, post: OwnedPost): boolean {
  if (post.status === "publish") return true;
  return (actor.kind === "user" && post.authorId === actor.id) || can(actor, "read_private_posts");
}

/** `canRead` as a `where`; undefined when the actor may read every post. */
export function readableWhere(actor: Actor): PostWhere | undefined {
  if (can(actor, "read_private_posts")) return undefined;
  if (actor.kind === "anonymous") return { status: "publish" };
  return { OR: [{ status: "publish" }, { authorId: actor.id }] };
}

// Listing posts: what may be read, without trash unless an editor asks for it.

/** The `where` fragment on `status`/`authorId` of a list. */
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

/** `listStatusWhere(actor, undefined)` as a predicate: would a list show this post to the actor? */
export function isListedFor(actor: Actor, post: OwnedPost): boolean {
  return post.status !== "trash" && canRead(actor, post);
}

// The details a password protects.

/**
 * Is the post shown without its protected details? Only when it has a password that the request does not give and
 * the actor may not edit the post: editors and owners always see everything.
 */
export function isRedacted(actor: Actor, post: GuardedPost, password?: string): boolean {
  if (post.password === "" || canEdit(actor, post)) return false;
  return password === undefined || !passwordMatches(post.password, password);
}

/** The posts whose protected details the actor sees without a password: every post's, none, or those it may edit. */
export type DetailsAccess = "all" | "none" | PostWhere;

/** `canEdit` as a `where` (the posts whose protected details the actor sees). */
export function detailsAccess(actor: Actor): DetailsAccess {
  if (can(actor, "edit_others_posts")) return "all";
  if (actor.kind !== "user" || !can(actor, "create_posts")) return "none";
  if (can(actor, "edit_published_posts")) return { authorId: actor.id };
  return { authorId: actor.id, status: { notIn: ["publish", "future", "private"] } };
}

/**
 * `!isRedacted(actor, post)` as a `where`, from `detailsAccess(actor)`: the posts whose protected details a filter or search may match without
 * a password. Undefined when the actor sees every post's.
 */
export function detailsShownWhere(access: DetailsAccess): PostWhere | undefined {
  if (access === "all") return undefined;
  return { OR: [{ password: "" }, ...(access === "none" ? [] : [access])] };
}

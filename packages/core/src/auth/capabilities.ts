import { forbidden } from "../errors.ts";
import type { Actor, Role } from "./roles.ts";

/**
 * The capability matrix (docs/behaviour.md, "Roles and capabilities"), the one place that decides who may do what.
 * Posts are events, venues and organizers; terms are categories and tags.
 */
export type Capability =
  | "create_posts" // create events, venues, organizers (contributors: scaled back to pending/draft)
  | "publish_posts" // keep publish/future on write
  | "edit_published_posts" // edit or delete own published posts
  | "edit_others_posts" // edit or delete anybody's posts
  | "read_private_posts" // see non-published posts of others
  | "manage_categories" // write categories and tags
  | "delete_permanently" // force=true deletes
  | "manage_webhooks"; // subscribe URLs to the changes, read their deliveries

const AUTHOR: readonly Capability[] = ["create_posts", "publish_posts", "edit_published_posts"];
const EDITOR: readonly Capability[] = [...AUTHOR, "edit_others_posts", "read_private_posts", "manage_categories"];

const GRANTS: Record<Role, readonly Capability[]> = {
  subscriber: [],
  contributor: ["create_posts"],
  author: AUTHOR,
  editor: EDITOR,
  administrator: [...EDITOR, "delete_permanently", "manage_webhooks"],
};

export function can(actor: Actor, capability: Capability): boolean {
  return actor.kind === "user" && GRANTS[actor.role].includes(capability);
}

/** Throws `rest_forbidden` (401 anonymous, 403 signed in) unless the actor has the capability. */
export function requireCapability(actor: Actor, capability: Capability): void {
  if (!can(actor, capability)) throw forbidden(actor.kind === "anonymous");
}

/** The fields of a post that decide access to it. */
export interface OwnedPost {
  status: string;
  authorId: number | null;
}

function isOwn(actor: Actor, post: OwnedPost): boolean {
  return actor.kind === "user" && post.authorId === actor.id;
}

/** May the actor edit or delete this post? Contributors: own unpublished only; authors: own; editors: all. */
export function canEdit(actor: Actor, post: OwnedPost): boolean {
  if (can(actor, "edit_others_posts")) return true;
  if (!isOwn(actor, post)) return false;
  const published = post.status === "publish" || post.status === "future" || post.status === "private";
  return published ? can(actor, "edit_published_posts") : can(actor, "create_posts");
}

export function requireEdit(actor: Actor, post: OwnedPost): void {
  if (!canEdit(actor, post)) throw forbidden(actor.kind === "anonymous");
}

/**
 * Status scale-back on write (docs/behaviour.md, "Roles and capabilities"): without publish rights, publish/future become pending and an
 * empty status becomes draft (so do publish, future and private: pending); with them, the default is publish.
 */
export function scaleBackStatus(actor: Actor, requested: string | undefined): string {
  if (can(actor, "publish_posts")) return requested ?? "publish";
  if (requested === undefined) return "draft";
  return requested === "draft" ? "draft" : "pending";
}

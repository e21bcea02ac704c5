import { createHash, timingSafeEqual } from "node:crypto";
import { canEdit, type OwnedPost } from "./capabilities.ts";
import type { Actor } from "./roles.ts";

/** Compares in constant time (hashes first, so the lengths do not leak either). */
export function passwordMatches(stored: string, given: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(stored), digest(given));
}

/**
 * Is the record (event, venue, organizer) shown without its protected details? Only when it has a password that the
 * request does not give and the actor may not edit the record: editors and owners always see everything
 * (docs/behaviour.md, "Password-protected records").
 */
export function isRedacted(actor: Actor, post: OwnedPost & { password: string }, password?: string): boolean {
  if (post.password === "" || canEdit(actor, post)) return false;
  return password === undefined || !passwordMatches(post.password, password);
}

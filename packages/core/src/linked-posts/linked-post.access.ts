import { createHash, timingSafeEqual } from "node:crypto";
import { canEdit, type OwnedPost } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import { DomainError } from "../errors.ts";

type KindName = "venue" | "organizer";

/** Compares in constant time (hashes first, so the lengths do not leak either). */
export function passwordMatches(stored: string, given: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(stored), digest(given));
}

/**
 * Is the record shown without its details? Only when it has a password that the request does not give and the
 * actor may not edit the record (editors and owners see everything; reference 3.10 and decision 7).
 */
export function isRedacted(actor: Actor, post: OwnedPost & { password: string }, password?: string): boolean {
  if (post.password === "" || canEdit(actor, post)) return false;
  return password === undefined || !passwordMatches(post.password, password);
}

export function notAccessible(kind: KindName): DomainError {
  return new DomainError(403, `${kind}-not-accessible`, `The requested ${kind} is not accessible`);
}

export function alreadyTrashed(kind: KindName): DomainError {
  return new DomainError(410, `${kind}-is-in-trash`, `The ${kind} is already trashed`);
}

export function archivePageNotFound(kind: KindName): DomainError {
  return new DomainError(404, `${kind}-archive-page-not-found`, `The requested ${kind} archive page does not exist`);
}

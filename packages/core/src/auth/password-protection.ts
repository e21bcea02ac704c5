import { createHash, timingSafeEqual } from "node:crypto";

/** Compares in constant time (hashes first, so the lengths do not leak either). */
export function passwordMatches(stored: string, given: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(stored), digest(given));
}

import type { Db, Tx } from "../db/db.ts";
import { DomainError } from "../errors.ts";

/** Each round of a clash lets at least one writer through, so this many concurrent writers always succeed. */
const MAX_ATTEMPTS = 10;

/** Prisma's unique-constraint violation (P2002), e.g. two requests taking the same slug at once. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "P2002";
}

/**
 * Runs a write in one transaction. A unique violation means a concurrent write took a slug (or a translation
 * slot) between our check and our insert: the whole transaction is retried, and only repeated clashes give 409.
 */
export async function runWrite<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(work);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw new DomainError(409, "rest_conflict", "A concurrent request changed the same records; try again.");
      }
    }
  }
}

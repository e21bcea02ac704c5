import { createHash, randomBytes } from "node:crypto";

/** Prefix of every API token, so that leaked tokens are easy to recognise in code and logs. */
export const TOKEN_PREFIX = "cal_";

/** A new random API token (256 bits): shown once to its owner and never stored. */
export function generateToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/**
 * What the database keeps of a token. Tokens are long and random, so a fast unsalted hash is enough here; the
 * lookup goes through a unique index on the hash, so no secret is compared byte by byte in application code.
 */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

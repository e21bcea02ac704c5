import { randomBytes } from "node:crypto";

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes (the HMAC key). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

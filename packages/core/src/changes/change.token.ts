import { domainError, invalidParam } from "../errors.ts";

/** What a sync token says: the change version it was issued at, and when (Unix seconds). */
export interface SyncToken {
  version: number;
  issuedAt: number;
}

const FORM = /^v1\.(\d{1,15})\.(\d{1,12})$/;

export function encodeSyncToken(token: SyncToken): string {
  return Buffer.from(`v1.${token.version}.${token.issuedAt}`, "utf8").toString("base64url");
}

/**
 * Reads `since`: a token this service issued (400 `rest_invalid_param` otherwise, also for a version it has not
 * reached), no older than the retention (410 `rest_sync_token_expired`: the tombstones it needs may be gone).
 */
export function decodeSyncToken(value: string, head: number, retentionDays: number, now: Date): SyncToken {
  const match = FORM.exec(Buffer.from(value, "base64url").toString("utf8"));
  const version = Number(match?.[1]);
  const issuedAt = Number(match?.[2]);
  if (!match || version > head || issuedAt * 1000 > now.getTime() + 60_000) {
    throw invalidParam("since", "Not a sync token of this calendar: pass the next_token of a previous call.");
  }
  if (issuedAt * 1000 < now.getTime() - retentionDays * 86_400_000) {
    throw domainError("rest_sync_token_expired", { retentionDays });
  }
  return { version, issuedAt };
}

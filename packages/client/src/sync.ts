import type { CalendarClient } from "./client.ts";
import type { CalendarChange, ChangeListQuery } from "./types.ts";

/** What `syncChanges` found: every change after the token, oldest first, and the token to pass next time. */
export interface SyncResult {
  changes: CalendarChange[];
  nextToken: string;
}

/**
 * Pages through the change feed from `since` until no page is waiting. Without `since` it returns a token for now
 * and no changes (read the lists once, then sync from that token). A 410 (`rest_sync_token_expired`) rejects as a
 * `CalendarClientError`: do a full sync then.
 */
export async function syncChanges(
  client: CalendarClient,
  since?: string,
  query: Omit<ChangeListQuery, "since"> = {},
): Promise<SyncResult> {
  const changes: CalendarChange[] = [];
  let token = since;
  for (;;) {
    const page = await client.changes.list.query({ ...query, since: token });
    changes.push(...page.changes);
    token = page.next_token;
    if (!page.has_more) return { changes, nextToken: token };
  }
}

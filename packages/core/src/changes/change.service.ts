import { canEdit } from "../auth/capabilities.ts";
import type { Actor } from "../auth/roles.ts";
import { canRead } from "../auth/visibility.ts";
import type { Db } from "../db/db.ts";
import type { Change } from "../generated/sqlite/client.ts";
import { presentChange } from "./change.present.ts";
import type { ChangeAction, ChangeListOutput, ChangeListQuery, ChangeOutput, ChangeType } from "./change.schemas.ts";
import { CHANGE_TYPES, changeAction } from "./change.schemas.ts";
import { decodeSyncToken, encodeSyncToken } from "./change.token.ts";
import { readChangeVersion } from "./change-version.ts";

/** Days a sync token stays usable (and tombstones are kept) unless the site says otherwise. */
export const DEFAULT_CHANGES_RETENTION_DAYS = 30;

/** What decides who sees a record at one version. */
interface RecordState {
  status: string;
  protected: boolean;
  authorId: number | null;
}

function sees(actor: Actor, state: RecordState): boolean {
  if (state.status === "trash") return false;
  return canRead(actor, state) && (!state.protected || canEdit(actor, state));
}

const keyOf = (row: { type: string; recordId: number }) => `${row.type}:${row.recordId}`;

/**
 * What the actor is told of a record's latest change, given its state at the token (`before`, undefined when no
 * change of it is older than the token) and whether it was created after the token: records it could not see
 * and now can are `created`, records it could see and now cannot are `deleted`, the others are left out.
 */
export function actionFor(
  actor: Actor,
  latest: Change,
  before: RecordState | undefined,
  bornAfterToken: boolean,
): ChangeAction | undefined {
  const sawBefore = bornAfterToken ? false : before === undefined || sees(actor, before);
  const action = changeAction.parse(latest.action);
  if (action === "trashed" && canEdit(actor, latest)) return "trashed";
  if (action === "deleted" || !sees(actor, latest)) return sawBefore ? "deleted" : undefined;
  if (!sawBefore || bornAfterToken) return "created";
  return before !== undefined && !sees(actor, before) ? "created" : "updated";
}

interface FeedWindow {
  since: number;
  head: number;
  types: readonly ChangeType[];
  language: string | undefined;
}

/**
 * The records whose latest change is newer than `since` and not newer than `head`, oldest latest change first, up
 * to `take` of them (all of one version when `version` is given).
 */
async function latestChanges(db: Db, window: FeedWindow, limit: { take: number } | { version: number }) {
  const where = {
    version: { gt: window.since, lte: window.head },
    type: { in: [...window.types] },
    ...(window.language ? { language: window.language } : {}),
  };
  const groups = await db.change.groupBy({
    by: ["type", "recordId"],
    where,
    _max: { version: true },
    _min: { version: true },
    orderBy: [{ _max: { version: "asc" } }, { type: "asc" }, { recordId: "asc" }],
    take: "take" in limit ? limit.take : undefined,
    having: "version" in limit ? { version: { _max: { equals: limit.version } } } : undefined,
  });
  return groups.map((group) => ({
    type: group.type,
    recordId: group.recordId,
    latest: group._max?.version ?? 0,
    first: group._min?.version ?? 0,
  }));
}

type Group = Awaited<ReturnType<typeof latestChanges>>[number];

/**
 * A page of at most `size` records that never splits the records of one version, so that the next page can start
 * after a whole version; when one version alone has more, the page is that whole version.
 */
async function pageOf(db: Db, window: FeedWindow, size: number): Promise<{ page: Group[]; hasMore: boolean }> {
  const groups = await latestChanges(db, window, { take: size + 1 });
  if (groups.length <= size) return { page: groups, hasMore: false };
  const boundary = groups[size]?.latest ?? 0;
  const whole = groups.slice(0, size).filter((group) => group.latest !== boundary);
  if (whole.length) return { page: whole, hasMore: true };
  const page = await latestChanges(db, window, { version: boundary });
  const beyond = await latestChanges(db, { ...window, since: boundary }, { take: 1 });
  return { page, hasMore: beyond.length > 0 };
}

export interface ChangeFeedOptions {
  retentionDays?: number;
  now?: Date;
}

/** `GET /changes`: the changes after a sync token that the actor may see, folded per record, oldest first. */
export async function listChanges(
  db: Db,
  actor: Actor,
  query: ChangeListQuery,
  options: ChangeFeedOptions = {},
): Promise<ChangeListOutput> {
  const now = options.now ?? new Date();
  // Every version up to the head has committed (version order is commit order): nothing below it can still appear.
  const head = await readChangeVersion(db);
  const issuedAt = Math.floor(now.getTime() / 1000);
  if (query.since === undefined) {
    return { changes: [], next_token: encodeSyncToken({ version: head, issuedAt }), has_more: false };
  }
  const since = decodeSyncToken(query.since, head, options.retentionDays ?? DEFAULT_CHANGES_RETENTION_DAYS, now);
  const window = {
    since: since.version,
    head,
    types: query.types?.length ? query.types : CHANGE_TYPES,
    language: query.ml_language,
  };
  const { page, hasMore } = await pageOf(db, window, query.per_page);
  const upTo = hasMore ? (page.at(-1)?.latest ?? since.version) : head;
  const records = page.map((group) => ({ type: group.type, recordId: group.recordId }));
  const rows = await changesAt(
    db,
    page.flatMap((group) => [
      { ...group, version: group.latest },
      { ...group, version: group.first },
    ]),
  );
  const byVersion = new Map(rows.map((row) => [`${keyOf(row)}@${row.version}`, row]));
  const before = await statesAt(db, since.version, records);
  const changes: ChangeOutput[] = [];
  for (const group of page) {
    const latest = byVersion.get(`${keyOf(group)}@${group.latest}`);
    const first = byVersion.get(`${keyOf(group)}@${group.first}`);
    if (!latest) continue;
    const action = actionFor(actor, latest, before.get(keyOf(group)), first?.action === "created");
    if (action === undefined) continue;
    changes.push(presentChange(latest, action));
  }
  return { changes, next_token: encodeSyncToken({ version: upTo, issuedAt }), has_more: hasMore };
}

/** Each record's state at `version` (its last change not newer), when it has one. */
async function statesAt(
  db: Db,
  version: number,
  records: ReadonlyArray<{ type: string; recordId: number }>,
): Promise<Map<string, RecordState>> {
  if (!records.length || version === 0) return new Map();
  const wanted = new Set(records.map(keyOf));
  const groups = (
    await db.change.groupBy({
      by: ["type", "recordId"],
      where: { version: { lte: version }, OR: recordsByType(records) },
      _max: { version: true },
    })
  ).filter((group) => wanted.has(keyOf(group)));
  const rows = await changesAt(
    db,
    groups.map((group) => ({ type: group.type, recordId: group.recordId, version: group._max.version ?? 0 })),
  );
  return new Map(rows.map((row) => [keyOf(row), row]));
}

/**
 * The records as one condition per type (`recordId IN (…)`): a condition per record would nest deeper than SQLite
 * allows (1,000) when one version holds that many records, as an edit of a whole series can.
 */
function recordsByType(records: ReadonlyArray<{ type: string; recordId: number }>) {
  const idsByType = new Map<string, number[]>();
  for (const record of records) {
    const ids = idsByType.get(record.type) ?? [];
    ids.push(record.recordId);
    idsByType.set(record.type, ids);
  }
  return [...idsByType].map(([type, ids]) => ({ type, recordId: { in: ids } }));
}

/** The change rows of these records at these versions. */
async function changesAt(
  db: Db,
  wanted: ReadonlyArray<{ type: string; recordId: number; version: number }>,
): Promise<Change[]> {
  if (!wanted.length) return [];
  const keys = new Set(wanted.map((entry) => `${keyOf(entry)}@${entry.version}`));
  const rows = await db.change.findMany({
    where: { version: { in: [...new Set(wanted.map((entry) => entry.version))] }, OR: recordsByType(wanted) },
  });
  return rows.filter((row) => keys.has(`${keyOf(row)}@${row.version}`));
}

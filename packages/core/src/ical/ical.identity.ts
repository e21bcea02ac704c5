import { randomUUID } from "node:crypto";
import type { Db } from "../db/db.ts";
import type { Scope } from "../scope.ts";

/**
 * The name a calendar's iCalendar UIDs end with when `CALENDAR_PUBLIC_URL` is not set: a random id created once
 * and kept in `CalendarSetting`, so that the calendar reached by another host name gives the same UIDs.
 */

const IDENTITY_KEY = "identity";

/** One read per database and process: the identity never changes once written. */
const identities = new WeakMap<Db, Promise<string>>();

/**
 * Writes the identity if none exists (`ON CONFLICT DO NOTHING`: of processes starting together, the first insert
 * wins and the others read it) and answers the stored one. It is not a record of the calendar: no change version.
 */
async function readOrCreateIdentity(db: Db): Promise<string> {
  const candidate = `${randomUUID()}.calendar.invalid`;
  await db.$executeRaw`INSERT INTO "CalendarSetting" ("key", "value") VALUES (${IDENTITY_KEY}, ${candidate}) ON CONFLICT ("key") DO NOTHING`;
  const stored = await db.calendarSetting.findUniqueOrThrow({ where: { key: IDENTITY_KEY } });
  return stored.value;
}

export function calendarIdentity(db: Db): Promise<string> {
  const known = identities.get(db);
  if (known) return known;
  const read = readOrCreateIdentity(db);
  identities.set(db, read);
  read.catch(() => identities.delete(db));
  return read;
}

/**
 * The host of the UIDs derived from events (`event-<id>@<host>`): the site's `global_id` host, else
 * `CALENDAR_PUBLIC_URL`'s, else the calendar's stored identity; never the request's Host, which another name of the
 * same calendar would change.
 */
export async function eventUidHost(scope: Scope, publicHost: string | undefined): Promise<string> {
  return scope.site.globalIdHost ?? publicHost ?? (await calendarIdentity(scope.db));
}

/** The event of ours a UID names (`event-<id>@<host>` with our host), if it does. */
export function ownEventId(uid: string, uidHost: string): number | undefined {
  const suffix = `@${uidHost}`;
  if (!uid.startsWith("event-") || !uid.endsWith(suffix)) return undefined;
  const id = Number(uid.slice("event-".length, -suffix.length));
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

import { randomUUID } from "node:crypto";
import type { Db } from "../db/db.ts";

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

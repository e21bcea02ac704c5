import { DateTime } from "luxon";
import { invalidParam } from "../errors.ts";
import { endOfDay, parseDateTime, readWallTime, startOfDay, WALL_TIME } from "../shared/dates.ts";
import type { DateValue, ListDateParam } from "./event.schemas.ts";

/** When an event takes place, as stored: event-local wall times in a resolved IANA zone, and the instants. */
export interface EventSchedule {
  timezone: string;
  allDay: boolean;
  startLocal: string;
  endLocal: string;
  startUtc: Date;
  endUtc: Date;
}

/** The schedule fields of a write; absent ones keep their current value. */
export interface ScheduleWrite {
  start_date?: DateValue | undefined;
  end_date?: DateValue | undefined;
  timezone?: string | undefined;
  all_day?: boolean | undefined;
}

/**
 * The longest an event may last: a festival season or a long exhibition fits, an end in year 9999 (which every feed
 * would carry as years of time-zone history) does not.
 */
export const MAX_EVENT_YEARS = 10;

export type CurrentSchedule = Pick<EventSchedule, "timezone" | "allDay" | "startLocal" | "endLocal">;

function readDate(value: DateValue, zone: string, name: string, now: Date): DateTime {
  const parsed = parseDateTime(value, zone, now);
  if (!parsed) throw invalidParam(name);
  return parsed.startOf("second");
}

/**
 * The schedule after a write (create: `current` undefined, and both dates given). Dates without an offset are
 * wall time in the event's zone (the written one, else the current one, else the site's); `""` means the
 * site's zone. Without new dates, a zone change keeps the wall times and moves the instants. All-day events span
 * whole days. An end before the start, or more than MAX_EVENT_YEARS after it, is a 400 naming `end_date`.
 */
export function scheduleOf(
  write: ScheduleWrite,
  current: CurrentSchedule | undefined,
  siteZone: string,
  now: Date = new Date(),
): EventSchedule {
  const timezone = write.timezone === "" ? siteZone : (write.timezone ?? current?.timezone ?? siteZone);
  const allDay = write.all_day ?? current?.allDay ?? false;
  const newOrStored = (value: DateValue | undefined, stored: string | undefined, name: string): DateTime => {
    if (value !== undefined) return readDate(value, timezone, name, now);
    if (stored === undefined) throw invalidParam(name);
    return readWallTime(stored, timezone);
  };
  const start = newOrStored(write.start_date, current?.startLocal, "start_date");
  const end = newOrStored(write.end_date, current?.endLocal, "end_date");
  const snappedStart = allDay ? startOfDay(start) : start;
  const snappedEnd = allDay ? endOfDay(end) : end;
  if (snappedEnd < snappedStart) throw invalidParam("end_date", "The end must not be before the start.");
  if (snappedEnd > snappedStart.plus({ years: MAX_EVENT_YEARS })) {
    throw invalidParam("end_date", `An event lasts at most ${MAX_EVENT_YEARS} years.`);
  }
  return {
    timezone,
    allDay,
    startLocal: snappedStart.toFormat(WALL_TIME),
    endLocal: snappedEnd.toFormat(WALL_TIME),
    startUtc: snappedStart.toJSDate(),
    endUtc: snappedEnd.toJSDate(),
  };
}

/** The instants a list compares `startUtc`/`endUtc` with (each optional). */
export interface DateBounds {
  startFrom?: Date;
  endUntil?: Date;
  startBefore?: Date;
  startAfter?: Date;
  endBefore?: Date;
  endAfter?: Date;
}

export interface ListDateWindow {
  bounds: DateBounds;
  /** The effective values, `YYYY-MM-DD HH:MM:SS` in the site zone, for the list's `rest_url`. */
  echo: Partial<Record<ListDateParam, string>>;
}

export type ListDateQuery = Partial<Record<ListDateParam, DateValue>> & {
  strict_dates?: boolean | undefined;
  include?: number[] | undefined;
};

const RELATIVE_PARAMS = ["starts_before", "starts_after", "ends_before", "ends_after"] as const;
const BOUND_OF: Record<ListDateParam, keyof DateBounds> = {
  start_date: "startFrom",
  end_date: "endUntil",
  starts_before: "startBefore",
  starts_after: "startAfter",
  ends_before: "endBefore",
  ends_after: "endAfter",
};

/**
 * The date window of `GET /events` (docs/behaviour.md, "Event lists"), read in the site zone:
 * - `start_date`: starts at or after; `end_date`: ends at or before; `starts_*`/`ends_*`: strictly before/after.
 * - Inclusive mode (the default) moves `start_date` to 00:00:00 and every other value to 23:59:59 of its day;
 *   `strict_dates` uses the times as given.
 * - Without `start_date`/`end_date`, they default to yesterday 00:00:00 and 24 months ahead at 23:59:59, unless a
 *   relative filter is given (then only the given filters apply). `include` ignores every date filter.
 */
export function listDateWindow(query: ListDateQuery, siteZone: string, now: Date = new Date()): ListDateWindow {
  if (query.include) return { bounds: {}, echo: {} };
  const strict = query.strict_dates ?? false;
  const relative = RELATIVE_PARAMS.some((name) => query[name] !== undefined);
  const today = DateTime.fromJSDate(now, { zone: siteZone });
  const defaults: Partial<Record<ListDateParam, DateTime>> = relative
    ? {}
    : { start_date: startOfDay(today.minus({ days: 1 })), end_date: endOfDay(today.plus({ months: 24 })) };

  const bounds: DateBounds = {};
  const echo: ListDateWindow["echo"] = {};
  for (const name of Object.keys(BOUND_OF) as ListDateParam[]) {
    const value = query[name];
    const instant = value === undefined ? defaults[name] : snap(readDate(value, siteZone, name, now), name, strict);
    if (!instant) continue;
    bounds[BOUND_OF[name]] = instant.toJSDate();
    echo[name] = instant.toFormat(WALL_TIME);
  }
  return { bounds, echo };
}

function snap(value: DateTime, name: ListDateParam, strict: boolean): DateTime {
  if (strict) return value;
  return name === "start_date" ? startOfDay(value) : endOfDay(value);
}

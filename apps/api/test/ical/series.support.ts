import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RouterOutputs } from "@calendar/core";
import ICAL from "ical.js";
import { parseCalendar, veventsOf } from "./ical.support.ts";

/**
 * What readers of a feed make of it, each line `<start> <summary>` (the UTC start, or the date of an all-day event),
 * sorted: ical.js' expansion, Python's icalendar with dateutil (`expand_feed.py`), and the JSON list.
 */

type ListedEvent = RouterOutputs["events"]["list"]["events"][number];

/** Debian's Python, where `python3-icalendar` is installed (`.ci/run`). */
const PYTHON = "/usr/bin/python3";
const SCRIPT = fileURLToPath(new URL("./expand_feed.py", import.meta.url));
/** No series of the tests has more occurrences: a reader that loops is caught. */
const MAX_OCCURRENCES = 2_000;

function labelOf(time: ICAL.Time): string {
  if (time.isDate) return time.toString();
  return time.toJSDate().toISOString().slice(0, 19).replace("T", " ");
}

/** A date (all-day) is compared with the window's days. */
function inWindow(start: string, since: string, until: string): boolean {
  return start.length === 10
    ? start >= since.slice(0, 10) && start < until.slice(0, 10)
    : start >= since && start < until;
}

/** The occurrences ical.js expands the feed to within [since, until) (UTC wall times). */
export function icalJsStarts(text: string, since: string, until: string): string[] {
  const calendar = parseCalendar(text);
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const byUid = new Map<string, ICAL.Event[]>();
  for (const component of veventsOf(calendar)) {
    const uid = String(component.getFirstPropertyValue("uid"));
    byUid.set(uid, [...(byUid.get(uid) ?? []), new ICAL.Event(component)]);
  }
  const found: Array<{ start: string; summary: string }> = [];
  const stop = ICAL.Time.fromJSDate(new Date(`${until.replace(" ", "T")}Z`), true);
  for (const events of byUid.values()) {
    const master = events.find((event) => !event.isRecurrenceException());
    if (!master?.isRecurring()) {
      for (const event of events) found.push({ start: labelOf(event.startDate), summary: event.summary });
      continue;
    }
    for (const exception of events.filter((event) => event.isRecurrenceException())) master.relateException(exception);
    const iterator = master.iterator();
    for (let count = 0; count < MAX_OCCURRENCES; count += 1) {
      const next = iterator.next();
      if (!next || next.compare(stop) > 0) break;
      const details = master.getOccurrenceDetails(next);
      found.push({ start: labelOf(details.startDate), summary: details.item.summary });
    }
  }
  return found
    .filter(({ start }) => inWindow(start, since, until))
    .map(({ start, summary }) => `${start} ${summary}`)
    .sort();
}

/** The occurrences Python's icalendar and dateutil expand the feed to within [since, until). */
export function pythonStarts(text: string, since: string, until: string): string[] {
  const output = execFileSync(PYTHON, [SCRIPT, since, until], { input: text, encoding: "utf8" });
  return output.split("\n").filter(Boolean).sort();
}

/** The list's events as the same lines. */
export function listedStarts(events: readonly ListedEvent[]): string[] {
  return events
    .map((event) => `${event.all_day ? event.start_date.slice(0, 10) : event.utc_start_date} ${event.title}`)
    .sort();
}

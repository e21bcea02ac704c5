"""Prints the starts an iCalendar feed (stdin) expands to within [argv[1], argv[2]) (UTC, `YYYY-MM-DD HH:MM:SS`).

Read with Debian's python3-icalendar (4.0.3, which parses but does not expand) and expanded with dateutil's
rruleset in each series' wall times, as a calendar application does: RRULE, RDATE, EXDATE, then the VEVENTs with a
RECURRENCE-ID in place of the instance they name. One line per occurrence, sorted: `<UTC start> <SUMMARY>`, or
`<date> <SUMMARY>` for all-day events.
"""

import re
import sys
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rruleset, rrulestr
from icalendar import Calendar

UTC = timezone.utc


def zone_of(prop):
    tzid = prop.params.get("TZID")
    return ZoneInfo(str(tzid)) if tzid else UTC


def wall(value, zone):
    """A DTSTART-like value as a naive wall time in `zone` (dates at midnight)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            return value
        return value.astimezone(zone).replace(tzinfo=None)
    return datetime(value.year, value.month, value.day)


def dates_of(component, name, zone):
    found = component.get(name)
    if found is None:
        return []
    lists = found if isinstance(found, list) else [found]
    return [wall(item.dt, zone) for values in lists for item in values.dts]


def label(start, zone, all_day):
    if all_day:
        return start.strftime("%Y-%m-%d")
    return start.replace(tzinfo=zone).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def expand_master(master, since, until):
    start_prop = master["DTSTART"]
    all_day = not isinstance(start_prop.dt, datetime)
    zone = zone_of(start_prop) if not all_day else UTC
    start = wall(start_prop.dt, zone)
    rules = rruleset()
    rule = master.get("RRULE")
    if rule is not None:
        text = rule.to_ical().decode()
        # UNTIL is a UTC instant: the expansion runs in wall times.
        text = re.sub(
            r"UNTIL=(\d{8}T\d{6})Z",
            lambda m: "UNTIL="
            + wall(datetime.strptime(m.group(1), "%Y%m%dT%H%M%S").replace(tzinfo=UTC), zone).strftime("%Y%m%dT%H%M%S"),
            text,
        )
        rules.rrule(rrulestr(text, dtstart=start))
    rules.rdate(start)
    for added in dates_of(master, "RDATE", zone):
        rules.rdate(added)
    for excluded in dates_of(master, "EXDATE", zone):
        rules.exdate(excluded)
    margin = timedelta(days=2)
    lower = wall(since, zone) - margin
    upper = wall(until, zone) + margin
    return zone, all_day, [s for s in rules.between(lower, upper, inc=True)]


def main():
    since = datetime.strptime(sys.argv[1], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    until = datetime.strptime(sys.argv[2], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    calendar = Calendar.from_ical(sys.stdin.read())
    by_uid = {}
    for event in calendar.walk("VEVENT"):
        by_uid.setdefault(str(event["UID"]), []).append(event)
    lines = []
    for events in by_uid.values():
        masters = [e for e in events if "RECURRENCE-ID" not in e]
        exceptions = [e for e in events if "RECURRENCE-ID" in e]
        master = masters[0] if masters else None
        if master is None or ("RRULE" not in master and "RDATE" not in master):
            for event in events:
                start_prop = event["DTSTART"]
                all_day = not isinstance(start_prop.dt, datetime)
                lines.append((label(wall(start_prop.dt, zone_of(start_prop)), zone_of(start_prop), all_day), event))
            continue
        zone, all_day, starts = expand_master(master, since, until)
        replaced = {wall(e["RECURRENCE-ID"].dt, zone): e for e in exceptions}
        for start in starts:
            exception = replaced.get(start)
            if exception is None:
                lines.append((label(start, zone, all_day), master))
                continue
            own = exception["DTSTART"]
            own_all_day = not isinstance(own.dt, datetime)
            lines.append((label(wall(own.dt, zone_of(own)), zone_of(own), own_all_day), exception))
    for text, event in sorted(lines, key=lambda item: item[0]):
        if len(text) == 10:
            day = date.fromisoformat(text)
            if not (since.date() <= day < until.date()):
                continue
        else:
            instant = datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
            if not (since <= instant < until):
                continue
        print(f"{text} {event['SUMMARY']}")


main()

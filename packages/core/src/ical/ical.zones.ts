import { getVtimezoneComponent } from "@touch4it/ical-timezones";
import ICAL from "ical.js";
import { IANAZone } from "luxon";
import { findIana } from "windows-iana";

/**
 * The IANA zone of a TZID as exporters write it: an IANA name (also with a `/` prefix or tzurl.org's path), or a
 * Microsoft name as Outlook writes it (`W. Europe Standard Time`, mapped through CLDR's table); undefined for
 * anything else (a custom VTIMEZONE must then define it).
 */
export function ianaZoneOf(tzid: string): string | undefined {
  const name = tzid.replace(/^\/+/, "").replace(/^.*zoneinfo(-outlook)?\//, "");
  if (IANAZone.isValidZone(name)) return name;
  const [windows] = findIana(tzid.trim());
  return windows && IANAZone.isValidZone(windows) ? windows : undefined;
}

function namedZone(component: ICAL.Component, tzid: string): ICAL.Timezone {
  const copy = new ICAL.Component(component.toJSON());
  copy.updatePropertyWithValue("tzid", tzid);
  return new ICAL.Timezone(copy);
}

/**
 * Registers, for the length of `work`, a zone for every TZID the calendar uses: the tz database's rules for the
 * names that resolve to an IANA zone, the file's own VTIMEZONE for the others. ical.js then expands recurrences
 * and compares EXDATE/RECURRENCE-ID values in the right zone. The registry is ical.js' own (global), so `work` is
 * synchronous and every zone is removed afterwards.
 */
export function withCalendarZones<T>(calendar: ICAL.Component, work: () => T): T {
  const own = new Map<string, ICAL.Component>();
  for (const component of calendar.getAllSubcomponents("vtimezone")) {
    const tzid = component.getFirstPropertyValue("tzid");
    if (typeof tzid === "string") own.set(tzid, component);
  }
  const used = new Set<string>(own.keys());
  for (const event of calendar.getAllSubcomponents("vevent")) {
    for (const property of event.getAllProperties()) {
      const tzid = property.getParameter("tzid");
      if (typeof tzid === "string") used.add(tzid);
    }
  }
  const registered: string[] = [];
  for (const tzid of used) {
    const iana = ianaZoneOf(tzid);
    const block = iana ? getVtimezoneComponent(iana) : undefined;
    const source = block ? ICAL.Component.fromString(block) : own.get(tzid);
    if (!source || ICAL.TimezoneService.has(tzid)) continue;
    ICAL.TimezoneService.register(namedZone(source, tzid), tzid);
    registered.push(tzid);
  }
  try {
    return work();
  } finally {
    for (const tzid of registered) ICAL.TimezoneService.remove(tzid);
  }
}

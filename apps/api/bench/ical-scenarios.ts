import type { ReadScenario } from "./scenarios.ts";

/** The iCalendar feed of issue 15: the default window, every matching event up to the feed's cap. */
export function icalScenarios(): ReadScenario[] {
  return [{ name: "events feed (ics)", rest: { method: "GET", path: "/cal/events/v1/events.ics" } }];
}

import fc from "fast-check";
import { DateTime } from "luxon";
import { RRule } from "rrule";
import { describe, expect, it } from "vitest";
import { extendedStarts, seriesStarts } from "./series.expand.ts";
import { DEFAULT_SERIES_LIMITS } from "./series.limits.ts";
import { parseRecurrenceLines, type SeriesFrame } from "./series.rule.ts";

/**
 * Sub-daily rules step in elapsed time (RFC 5545's hours are exact durations): checked against rrule.js stepping in
 * UTC, its instants then read on the zone's wall clock for the BY parts, around each DST change of 2031 in zones with
 * changes of an hour, of half an hour (Lord Howe) and in either hemisphere. The runs come from
 * CALENDAR_SERIES_PROPERTY_RUNS (default 100); CALENDAR_FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.CALENDAR_SERIES_PROPERTY_RUNS ?? 100);
const SEED = Number(process.env.CALENDAR_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const WALL = "yyyy-MM-dd HH:mm:ss";
const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "Australia/Sydney",
  "Australia/Lord_Howe",
  "America/Santiago",
  "Europe/London",
];
const DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;

/** The instants of 2031 at which a zone's offset changes. */
function changesOf(zone: string): DateTime[] {
  const changes: DateTime[] = [];
  let previous = DateTime.fromISO("2031-01-01T00:00:00Z").setZone(zone);
  for (let hour = 1; hour < 365 * 24; hour++) {
    const next = previous.plus({ hours: 1 });
    if (next.offset !== previous.offset) changes.push(next);
    previous = next;
  }
  return changes;
}
const CHANGES = new Map(ZONES.map((zone) => [zone, changesOf(zone)]));

const hourlyCase = fc.record({
  zone: fc.constantFrom(...ZONES),
  change: fc.integer({ min: 0, max: 1 }),
  hoursBefore: fc.integer({ min: 0, max: 30 }),
  minute: fc.constantFrom(0, 15, 30, 45),
  interval: fc.integer({ min: 1, max: 3 }),
  count: fc.integer({ min: 1, max: 40 }),
  byDay: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
  byMonthDayShift: fc.option(fc.uniqueArray(fc.integer({ min: -1, max: 2 }), { minLength: 1, maxLength: 2 }), {
    nil: null,
  }),
});

describe("sub-daily rules across DST changes", () => {
  it("give the instants of an independent elapsed-time expansion, each with its own wall-clock time", {
    timeout: 120_000,
  }, () => {
    fc.assert(
      fc.property(hourlyCase, (drawn) => {
        const change = CHANGES.get(drawn.zone)?.[drawn.change];
        if (change === undefined) throw new Error(`No DST change in ${drawn.zone}.`);
        const startLocal = change.minus({ hours: drawn.hoursBefore }).set({ minute: drawn.minute }).toFormat(WALL);
        const start = DateTime.fromFormat(startLocal, WALL, { zone: drawn.zone });
        const monthDays = drawn.byMonthDayShift?.map((shift) => change.plus({ days: shift }).day);
        const parts = [`FREQ=HOURLY`, `INTERVAL=${drawn.interval}`, `COUNT=${drawn.count}`];
        if (drawn.byDay.length) parts.push(`BYDAY=${drawn.byDay.map((day) => DAYS[day]).join(",")}`);
        if (monthDays) parts.push(`BYMONTHDAY=${monthDays.join(",")}`);

        // rrule.js steps from the first start's instant in UTC; the BY parts are read on the zone's wall clock.
        const kept: Date[] = [];
        const inParts = (date: Date) => {
          const local = DateTime.fromJSDate(date, { zone: drawn.zone });
          if (drawn.byDay.length && !drawn.byDay.includes(local.weekday - 1)) return false;
          return !monthDays || monthDays.includes(local.day);
        };
        new RRule({ freq: RRule.HOURLY, interval: drawn.interval, dtstart: start.toJSDate() }).all((date, index) => {
          if (index === 0 || inParts(date)) kept.push(date);
          return index < 3_000 && kept.length < drawn.count;
        });
        fc.pre(kept.length >= drawn.count);
        const expected = kept.slice(0, drawn.count).map((date) => date.toISOString());

        const frame: SeriesFrame = { timezone: drawn.zone, allDay: false, startLocal };
        const rule = parseRecurrenceLines([`RRULE:${parts.join(";")}`], frame, DEFAULT_SERIES_LIMITS.maxOccurrences);
        const { starts } = seriesStarts(frame, rule, new Date(), DEFAULT_SERIES_LIMITS);
        const label = `${drawn.zone} ${startLocal} ${parts.join(";")}`;
        expect(
          starts.map((found) => found.utc.toISOString()),
          label,
        ).toEqual(expected);
        const [first, ...later] = starts;
        expect(first?.local, label).toBe(startLocal);
        for (const found of later) {
          expect(found.local, label).toBe(DateTime.fromJSDate(found.utc, { zone: drawn.zone }).toFormat(WALL));
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("extends an hourly rule without an end from any horizon as it expands at once", () => {
    const frame: SeriesFrame = { timezone: "Europe/Berlin", allDay: false, startLocal: "2031-03-29 20:30:00" };
    const rule = parseRecurrenceLines(["RRULE:FREQ=HOURLY;INTERVAL=5;BYDAY=SU,MO"], frame, 1_000);
    const until = new Date("2031-04-20T00:00:00Z");
    const atOnce = seriesStarts(frame, rule, until, DEFAULT_SERIES_LIMITS).starts;
    const horizon = new Date("2031-03-30T07:00:00Z");
    const before = seriesStarts(frame, rule, horizon, DEFAULT_SERIES_LIMITS).starts;
    const after = extendedStarts(frame, rule, { resumeFrom: frame.startLocal, after: horizon, until }).starts;
    expect([...before, ...after]).toEqual(atOnce);
  });
});

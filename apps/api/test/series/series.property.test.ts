import type { RouterOutputs } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import fc from "fast-check";
import { DateTime } from "luxon";
import { Frequency, RRule, type Weekday } from "rrule";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

/**
 * The occurrences the API lists for a series equal an independent expansion of its stored rule by rrule.js, in wall
 * time (DTSTART floating, each wall time then read in the zone), and no two share an original start. The runs per
 * database come from CALENDAR_SERIES_PROPERTY_RUNS (default 20); CALENDAR_FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.CALENDAR_SERIES_PROPERTY_RUNS ?? 20);
const SEED = Number(process.env.CALENDAR_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

const WALL = "yyyy-MM-dd HH:mm:ss";
const ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "UTC"] as const;
const DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const RRULE_DAYS = [RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR, RRule.SA, RRule.SU];
const FREQUENCIES = {
  DAILY: Frequency.DAILY,
  WEEKLY: Frequency.WEEKLY,
  MONTHLY: Frequency.MONTHLY,
  YEARLY: Frequency.YEARLY,
};
/** The most occurrences a case may have: one page of the occurrences list. */
const MAX_LISTED = 50;

type Freq = keyof typeof FREQUENCIES;

interface Day {
  day: number;
  ordinal: number | null;
}

interface RuleCase {
  zone: (typeof ZONES)[number];
  allDay: boolean;
  base: string;
  freq: Freq;
  interval: number;
  byDay: Day[];
  byMonthDay: number[];
  byMonth: number[];
  bySetPos: number[];
  end: { count: number } | { periods: number };
  exdates: number[];
  rdateOffsets: number[];
}

const dayArbitrary = (ordinals: boolean) =>
  fc.record({
    day: fc.integer({ min: 0, max: 6 }),
    ordinal: ordinals ? fc.option(fc.constantFrom(1, 2, -1), { nil: null }) : fc.constant(null),
  });

const ruleCase: fc.Arbitrary<RuleCase> = fc
  .constantFrom<Freq>("DAILY", "WEEKLY", "MONTHLY", "YEARLY")
  .chain((freq) => {
    const monthly = freq === "MONTHLY" || freq === "YEARLY";
    return fc.record({
      zone: fc.constantFrom(...ZONES),
      allDay: fc.boolean(),
      base: fc
        .record({
          day: fc.integer({ min: 0, max: 3 * 365 }),
          time: fc.constantFrom("19:00:00", "02:30:00", "00:00:00", "09:15:00"),
        })
        .map(({ day, time }) => `${DateTime.fromISO("2031-01-01").plus({ days: day }).toISODate()} ${time}`),
      freq: fc.constant(freq),
      interval: fc.integer({ min: 1, max: 3 }),
      byDay:
        freq === "DAILY"
          ? fc.constant<Day[]>([])
          : fc.uniqueArray(dayArbitrary(monthly), { maxLength: 3, selector: (d) => d.day }),
      byMonthDay: monthly
        ? fc.uniqueArray(fc.constantFrom(1, 10, 15, 28, -1), { maxLength: 2 })
        : fc.constant<number[]>([]),
      byMonth:
        freq === "YEARLY"
          ? fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 3 })
          : fc.constant<number[]>([]),
      bySetPos: monthly ? fc.uniqueArray(fc.constantFrom(1, 2, -1), { maxLength: 1 }) : fc.constant<number[]>([]),
      end: fc.oneof(
        fc.record({ count: fc.integer({ min: 1, max: 12 }) }),
        fc.record({ periods: fc.integer({ min: 1, max: 10 }) }),
      ),
      exdates: fc.uniqueArray(fc.integer({ min: 1, max: 11 }), { maxLength: 2 }),
      rdateOffsets: fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 2 }),
    });
  })
  // BYSETPOS chooses among the dates of a period: only with several of them to choose from.
  .filter((rule) => rule.bySetPos.length === 0 || rule.byDay.length + rule.byMonthDay.length > 1)
  // Known divergences of the expander (ical.js), which the API refuses with a 400 naming the combination
  // (`unsupportedCombination` in series.rule.ts; series.create.test.ts checks each): a YEARLY rule with both BYDAY and
  // BYMONTHDAY gives no date, with BYMONTHDAY but no BYMONTH only DTSTART's month, and with a negative BYMONTHDAY
  // and several months reads it by another month's length (29 January 2032 as its last day); a rule with BYDAY
  // and a negative BYMONTHDAY is refused ("Malformed values in BYDAY part"); BYSETPOS is ignored in YEARLY rules,
  // and applied to BYDAY's dates only, not to BYMONTHDAY's, in MONTHLY ones.
  .filter((rule) => !(rule.freq === "YEARLY" && rule.byDay.length > 0 && rule.byMonthDay.length > 0))
  .filter((rule) => !(rule.freq === "YEARLY" && rule.byMonthDay.length > 0 && rule.byMonth.length === 0))
  .filter((rule) => !(rule.freq === "YEARLY" && rule.byMonthDay.some((day) => day < 0)))
  .filter((rule) => !(rule.byDay.length > 0 && rule.byMonthDay.some((day) => day < 0)))
  .filter((rule) => rule.bySetPos.length === 0 || (rule.freq === "MONTHLY" && rule.byMonthDay.length === 0));

/** A wall time as rrule.js' floating date (a UTC date with the same digits), and back. */
function floating(wall: string): Date {
  return DateTime.fromFormat(wall, WALL, { zone: "UTC" }).toJSDate();
}
function wallOf(date: Date): string {
  return DateTime.fromJSDate(date, { zone: "UTC" }).toFormat(WALL);
}

function icalWall(wall: string, allDay: boolean): string {
  const compact = wall.replaceAll("-", "").replaceAll(":", "").replace(" ", "T");
  return allDay ? compact.slice(0, 8) : compact;
}

function weekdays(days: Day[]): Weekday[] {
  return days.map(({ day, ordinal }) => {
    const weekday = RRULE_DAYS[day] ?? RRule.MO;
    return ordinal === null ? weekday : weekday.nth(ordinal);
  });
}

function periodUnit(freq: Freq) {
  return ({ DAILY: "days", WEEKLY: "weeks", MONTHLY: "months", YEARLY: "years" } as const)[freq];
}

/** The rule's options for rrule.js, from `start` (floating), without its end. */
function optionsOf(rule: RuleCase, start: string) {
  return {
    freq: FREQUENCIES[rule.freq],
    interval: rule.interval,
    dtstart: floating(start),
    ...(rule.byDay.length ? { byweekday: weekdays(rule.byDay) } : {}),
    ...(rule.byMonthDay.length ? { bymonthday: rule.byMonthDay } : {}),
    ...(rule.byMonth.length ? { bymonth: rule.byMonth } : {}),
    ...(rule.bySetPos.length ? { bysetpos: rule.bySetPos } : {}),
  };
}

/** The RRULE value of the case, with UNTIL in the form the series' frame asks for. */
function rruleValue(rule: RuleCase, untilWall: string | null): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval > 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byDay.length) {
    parts.push(`BYDAY=${rule.byDay.map(({ day, ordinal }) => `${ordinal ?? ""}${DAYS[day]}`).join(",")}`);
  }
  if (rule.byMonthDay.length) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(",")}`);
  if (rule.byMonth.length) parts.push(`BYMONTH=${rule.byMonth.join(",")}`);
  if (rule.bySetPos.length) parts.push(`BYSETPOS=${rule.bySetPos.join(",")}`);
  if ("count" in rule.end) parts.push(`COUNT=${rule.end.count}`);
  else if (untilWall) {
    const until = rule.allDay
      ? untilWall.slice(0, 10).replaceAll("-", "")
      : DateTime.fromFormat(untilWall, WALL, { zone: rule.zone }).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");
    parts.push(`UNTIL=${until}`);
  }
  return parts.join(";");
}

interface Planned {
  start: string;
  lines: string[];
  /** The wall times the series must list, in order. */
  expected: string[];
  /** The wall times its rule gives (without RDATE and EXDATE). */
  ruleDates: string[];
}

/**
 * The case as a series: its first start is the first date the rule gives on or after `base` (RFC 5545 counts a
 * DTSTART the rule does not give, rrule.js does not), its EXDATEs some of its later dates, its RDATEs dates after it.
 */
function plan(rule: RuleCase): Planned | null {
  const base = rule.allDay ? `${rule.base.slice(0, 10)} 00:00:00` : rule.base;
  const first = new RRule({ ...optionsOf(rule, base), count: 1 }).all()[0];
  if (first === undefined) return null;
  const start = wallOf(first);
  // A start in the hour a DST change skips is read an hour later, as every event's (docs/behaviour.md, "Date
  // values"): the series then runs at that later time, which is not the case drawn.
  if (!rule.allDay && DateTime.fromFormat(start, WALL, { zone: rule.zone }).toFormat(WALL) !== start) return null;
  // A YEARLY rule in several months on its start's day after the 28th is refused too (`unsupportedCombination`):
  // ical.js reads the day by the first month's length.
  const startsLate = rule.byDay.length === 0 && rule.byMonthDay.length === 0 && Number(start.slice(8, 10)) > 28;
  if (rule.freq === "YEARLY" && rule.byMonth.length > 1 && startsLate) return null;
  const untilWall =
    "periods" in rule.end
      ? DateTime.fromFormat(start, WALL)
          .plus({ [periodUnit(rule.freq)]: rule.end.periods * rule.interval })
          .toFormat(WALL)
      : null;
  const end = "count" in rule.end ? { count: rule.end.count } : { until: floating(untilWall ?? start) };
  const byRule = new RRule({ ...optionsOf(rule, start), ...end }).all((_, index) => index < MAX_LISTED * 2).map(wallOf);
  const exdates = rule.exdates.flatMap((index) => byRule.slice(index, index + 1));
  const rdates = rule.rdateOffsets.map((days) => DateTime.fromFormat(start, WALL).plus({ days }).toFormat(WALL));
  const expected = [...new Set([...byRule, ...rdates])].filter((wall) => !exdates.includes(wall)).sort();
  if (expected.length > MAX_LISTED) return null;
  const dateLine = (name: string, walls: string[]) =>
    walls.length
      ? [
          rule.allDay
            ? `${name};VALUE=DATE:${walls.map((wall) => icalWall(wall, true)).join(",")}`
            : `${name};TZID=${rule.zone}:${walls.map((wall) => icalWall(wall, false)).join(",")}`,
        ]
      : [];
  return {
    start,
    lines: [`RRULE:${rruleValue(rule, untilWall)}`, ...dateLine("RDATE", rdates), ...dateLine("EXDATE", exdates)],
    expected,
    ruleDates: byRule,
  };
}

/** `20310121T190000` (or `20310121`) as a wall time. */
function wallOfIcal(value: string): string {
  const time = value.length > 8 ? `${value.slice(9, 11)}:${value.slice(11, 13)}:${value.slice(13, 15)}` : "00:00:00";
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)} ${time}`;
}

/**
 * The starts of a series' stored lines (as the API shows them) from its first start, expanded by rrule.js alone:
 * the RRULE in wall time (a UTC UNTIL read in the zone), the RDATEs added and the EXDATEs removed.
 */
function expandStored(lines: readonly string[], start: string, zone: string, allDay: boolean): string[] {
  const starts = new Set([start]);
  const rrule = lines.find((line) => line.startsWith("RRULE:"));
  if (rrule) {
    const options = RRule.parseString(rrule.slice("RRULE:".length));
    if (options.until) {
      const until = DateTime.fromJSDate(options.until, { zone: "UTC" });
      options.until = floating(
        allDay ? `${until.toFormat("yyyy-MM-dd")} 23:59:59` : until.setZone(zone).toFormat(WALL),
      );
    }
    const expansion = new RRule({ ...options, dtstart: floating(start) }).all((_, index) => index <= MAX_LISTED);
    for (const date of expansion) starts.add(wallOf(date));
  }
  const datesOf = (name: string) =>
    lines
      .filter((line) => line.startsWith(name))
      .flatMap((line) => line.slice(line.indexOf(":") + 1).split(","))
      .map(wallOfIcal);
  for (const date of datesOf("RDATE")) starts.add(date);
  for (const date of datesOf("EXDATE")) starts.delete(date);
  return [...starts].filter((wall) => wall >= start).sort();
}

/** An edit through the API: one occurrence deleted, the series split at one, or all of it moved. */
type EditCase =
  | { kind: "none" }
  | { kind: "delete-this"; at: number }
  | { kind: "split-following"; at: number }
  | { kind: "move-all"; minutes: number };

const editCase: fc.Arbitrary<EditCase> = fc.oneof(
  fc.constant({ kind: "none" } as const),
  fc.record({ kind: fc.constant("delete-this" as const), at: fc.integer({ min: 0, max: 10 }) }),
  fc.record({ kind: fc.constant("split-following" as const), at: fc.integer({ min: 1, max: 10 }) }),
  fc.record({ kind: fc.constant("move-all" as const), minutes: fc.constantFrom(-120, -30, 45, 90) }),
);

describe.each(PROVIDERS)("a series' occurrences against rrule.js (%s)", (provider) => {
  const server = useTestServer(provider);
  const admin = () => server.users.administrator;
  type Occurrence = RouterOutputs["events"]["occurrences"]["events"][number];

  /** The series of the planned rule, 90 minutes per occurrence (all-day: one day), as its first occurrence. */
  async function createSeries(title: string, rule: RuleCase, planned: Planned) {
    const { body } = await server.call("POST /events", {
      as: admin(),
      status: 201,
      body: {
        title,
        start_date: rule.allDay ? planned.start.slice(0, 10) : planned.start,
        end_date: rule.allDay
          ? planned.start.slice(0, 10)
          : DateTime.fromFormat(planned.start, WALL).plus({ minutes: 90 }).toFormat(WALL),
        all_day: rule.allDay,
        timezone: rule.zone,
        recurrence: planned.lines,
      },
    });
    return body;
  }

  async function occurrencesOf(id: number): Promise<Occurrence[]> {
    const { body } = await server.call("GET /events/{id}/occurrences", {
      as: admin(),
      params: { id },
      query: { start_date: "2000-01-01", end_date: "2100-12-31", per_page: MAX_LISTED },
      status: 200,
    });
    return body.events;
  }

  it("lists exactly the starts of an independent expansion of the stored rule, each original start once", async () => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(ruleCase, async (rule) => {
        const planned = plan(rule);
        fc.pre(planned !== null);
        if (planned === null) return;
        const first = await createSeries(`Property ${created++}`, rule, planned);
        const events = await occurrencesOf(first.id);
        const originals = events.map((event) => event.original_start_date);
        expect(new Set(originals).size, planned.lines.join(" ")).toBe(originals.length);
        expect(originals, planned.lines.join(" ")).toEqual(planned.expected);
        if (!rule.allDay) {
          expect(events.map((event) => event.utc_start_date)).toEqual(
            planned.expected.map((wall) => DateTime.fromFormat(wall, WALL, { zone: rule.zone }).toUTC().toFormat(WALL)),
          );
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);

  it("lists, after an edit, exactly the independent expansion of each series' stored rule, each original start once", async () => {
    let created = 0;
    function expectExpansion(events: readonly Occurrence[], start: string, rule: RuleCase, label: string) {
      const originals = events.map((event) => event.original_start_date ?? "");
      expect(new Set(originals).size, label).toBe(originals.length);
      expect(originals, label).toEqual(expandStored(events[0]?.recurrence ?? [], start, rule.zone, rule.allDay));
    }
    await fc.assert(
      fc.asyncProperty(ruleCase, editCase, async (rule, edit) => {
        const planned = plan(rule);
        fc.pre(planned !== null && !(edit.kind === "move-all" && rule.allDay));
        if (planned === null) return;
        fc.pre(edit.kind === "none" || edit.kind === "move-all" || edit.at < planned.expected.length - 1);
        const first = await createSeries(`Edited ${created++}`, rule, planned);
        const before = await occurrencesOf(first.id);
        const label = `${planned.lines.join(" ")} ${JSON.stringify(edit)}`;
        if (edit.kind === "none") {
          expectExpansion(before, planned.start, rule, label);
        } else if (edit.kind === "delete-this") {
          const target = before[edit.at];
          await server.call("DELETE /events/{id}", { as: admin(), params: { id: target?.id ?? 0 }, status: 200 });
          const left = await occurrencesOf(before[edit.at === 0 ? 1 : 0]?.id ?? 0);
          expect(left.map((event) => event.id)).not.toContain(target?.id);
          expectExpansion(left, planned.start, rule, label);
        } else if (edit.kind === "split-following") {
          const target = before[edit.at];
          const cut = target?.original_start_date ?? "";
          const split = { title: "Split", recurrence_scope: "following" };
          if (!planned.ruleDates.includes(cut) && planned.ruleDates.some((date) => date > cut)) {
            // An occurrence an RDATE added cannot start the rule anew: the later part would count from another day.
            const refused = await server.fail("POST /events/{id}", 400, {
              as: admin(),
              params: { id: target?.id ?? 0 },
              body: split,
            });
            expect(refused.body.data.params, label).toHaveProperty("recurrence_scope");
            return;
          }
          await server.call("POST /events/{id}", {
            as: admin(),
            params: { id: target?.id ?? 0 },
            body: split,
            status: 200,
          });
          const earlier = await occurrencesOf(first.id);
          const later = await occurrencesOf(target?.id ?? 0);
          expectExpansion(earlier, planned.start, rule, `${label} earlier`);
          expectExpansion(later, target?.original_start_date ?? "", rule, `${label} later`);
          expect([...earlier, ...later].map((event) => event.original_start_date)).toEqual(planned.expected);
        } else {
          const moved = DateTime.fromFormat(planned.start, WALL).plus({ minutes: edit.minutes });
          const body = {
            start_date: moved.toFormat(WALL),
            end_date: moved.plus({ minutes: 90 }).toFormat(WALL),
            recurrence_scope: "all",
          };
          const namesDays = rule.byDay.length + rule.byMonthDay.length + rule.byMonth.length + rule.bySetPos.length > 0;
          if (namesDays && moved.toFormat("yyyy-MM-dd") !== planned.start.slice(0, 10)) {
            // The rule names the old days: moving to another day needs the rule for the new days.
            const refused = await server.fail("POST /events/{id}", 400, {
              as: admin(),
              params: { id: first.id },
              body,
            });
            expect(refused.body.data.params, label).toHaveProperty("start_date");
            expect(await occurrencesOf(first.id)).toEqual(before);
            return;
          }
          await server.call("POST /events/{id}", { as: admin(), params: { id: first.id }, body, status: 200 });
          const after = await occurrencesOf(first.id);
          expect(after.map((event) => event.id)).toEqual(before.map((event) => event.id));
          expectExpansion(after, moved.toFormat(WALL), rule, label);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 180_000);
});

import { DateTime } from "luxon";
import { z } from "zod";
import { invalidParam } from "../errors.ts";

/**
 * The Events Calendar Pro's `recurrence` (its `_EventRecurrence` meta, as its clients send it) and its translation to
 * the RFC 5545 lines a series keeps (docs/behaviour.md, "The plugin's Pro shape"). What maps is translated; what
 * cannot be honoured is a 400 naming the part, never dropped.
 */

/** The plugin spells its keys with hyphens (`end-type`); `end_type` is read the same. */
function hyphenatedKeys(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.replaceAll("_", "-"), item]));
}

/** An object of the plugin's shape: its keys read with hyphens, any other key refused. */
function proObject<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.preprocess((value: z.input<z.ZodObject<T>>) => hyphenatedKeys(value), z.strictObject(shape));
}

/** A whole number, typed or as the decimal string a form sends. */
function wholeNumber(min: number, max: number) {
  return z.preprocess(
    (value: number) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    z.number().int().min(min).max(max),
  );
}

const proDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "A date YYYY-MM-DD.");
const yesNo = z.enum(["yes", "no"]);
const ORDINALS = { First: 1, Second: 2, Third: 3, Fourth: 4, Fifth: 5, Last: -1 } as const;
/** The plugin's weekdays: 1 (Monday) to 7 (Sunday); 8 in a month's `day` means "day of the month". */
const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const DAY_OF_MONTH = 8;

/** "First" … "Fifth", "Last", or a day of the month (1–31). */
const monthNumber = z.union([z.enum(Object.keys(ORDINALS) as [keyof typeof ORDINALS]), wholeNumber(1, 31)]);

/** Which day of the month: the start's own (`same-day`), a day number, or the nth weekday. */
const monthDay = {
  number: monthNumber.optional(),
  day: z.union([wholeNumber(1, DAY_OF_MONTH), z.literal("-")]).optional(),
  "same-day": yesNo.optional(),
};

const CUSTOM_TYPES = ["Daily", "Weekly", "Monthly", "Yearly", "Date"] as const;
const EVERY = {
  "Every Day": "DAILY",
  "Every Week": "WEEKLY",
  "Every Month": "MONTHLY",
  "Every Year": "YEARLY",
} as const;
const FREQUENCY = { Daily: "DAILY", Weekly: "WEEKLY", Monthly: "MONTHLY", Yearly: "YEARLY" } as const;

const proCustom = proObject({
  type: z.enum(CUSTOM_TYPES).optional(),
  interval: wholeNumber(1, 1_000).optional(),
  "same-time": yesNo.optional(),
  "start-time": z.string().max(20).optional(),
  "end-time": z.string().max(20).optional(),
  "end-day": z.union([z.string().max(20), z.number()]).optional(),
  "type-text": z.string().max(200).optional(),
  week: proObject({ day: z.array(wholeNumber(1, 7)).max(7).optional() }).optional(),
  month: proObject(monthDay).optional(),
  year: proObject({
    ...monthDay,
    month: z.union([z.string().max(40), z.array(wholeNumber(1, 12)).max(12)]).optional(),
    filter: z.union([z.string().max(10), z.number()]).optional(),
  }).optional(),
  date: proObject({ date: proDate }).optional(),
});

const proRule = proObject({
  type: z.enum(["Custom", ...CUSTOM_TYPES, ...(Object.keys(EVERY) as [keyof typeof EVERY])]).optional(),
  "end-type": z.enum(["On", "After", "Never"]).optional(),
  end: proDate.optional(),
  "end-count": wholeNumber(1, 100_000).optional(),
  "occurrence-count-text": z.string().max(200).optional(),
  custom: proCustom.optional(),
});

export const proRecurrenceInput = proObject({
  rules: z.array(proRule).min(1).max(20),
  exclusions: z.array(proRule).max(1_000).optional(),
  description: z.string().max(1_000).optional(),
}).meta({
  description:
    'The Events Calendar Pro\'s recurrence, e.g. {"rules":[{"type":"Custom","custom":{"type":"Weekly","interval":2,"week":{"day":[2]}},"end-type":"After","end-count":10}],"exclusions":[{"custom":{"type":"Date","date":{"date":"2031-01-21"}}}]}: translated to RRULE, RDATE and EXDATE lines.',
});
export type ProRecurrence = z.infer<typeof proRecurrenceInput>;
type ProRule = z.infer<typeof proRule>;
type ProCustom = z.infer<typeof proCustom>;
type ProMonthDay = NonNullable<ProCustom["month"]>;

/** Where the lines are read: the event's zone, and whether it is all-day (an end date is its last day). */
export interface ProFrame {
  timezone: string;
  allDay: boolean;
}

/** A refusal naming the part of the Pro shape at fault (`rules.0.custom.month.day`). */
function refuse(part: string, reason: string) {
  return invalidParam("recurrence", `${part}: ${reason}`);
}

function icalDate(date: string): string {
  return date.replaceAll("-", "");
}

/** `end`, the last day occurrences may start on, as UNTIL: a date for all-day series, else that day's end in UTC. */
function untilOf(end: string, frame: ProFrame): string {
  if (frame.allDay) return icalDate(end);
  return DateTime.fromISO(end, { zone: frame.timezone }).endOf("day").toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");
}

function endParts(rule: ProRule, at: string, frame: ProFrame): string[] {
  const endType = rule["end-type"] ?? "Never";
  if (endType === "On") {
    if (rule.end === undefined)
      throw refuse(`${at}.end`, 'The date the series ends on is required with "end-type": "On".');
    return [`UNTIL=${untilOf(rule.end, frame)}`];
  }
  if (endType === "After") {
    const count = rule["end-count"];
    if (count === undefined)
      throw refuse(`${at}.end-count`, 'The number of occurrences is required with "end-type": "After".');
    return [`COUNT=${count}`];
  }
  return [];
}

/** The BY… parts of a month's (or a year's) day: none for the start's own day. */
function monthDayParts(month: ProMonthDay | undefined, at: string): string[] {
  if (month === undefined || month["same-day"] === "yes" || month.number === undefined) return [];
  const { number, day } = month;
  if (typeof number === "number") return [`BYMONTHDAY=${number}`];
  if (day === undefined || day === "-") {
    throw refuse(`${at}.day`, `"${number}" needs a weekday (1 for Monday to 7 for Sunday, 8 for a day of the month).`);
  }
  const ordinal = ORDINALS[number];
  if (day === DAY_OF_MONTH) return [`BYMONTHDAY=${ordinal}`];
  return [`BYDAY=${ordinal}${WEEKDAYS[day - 1]}`];
}

function monthsOf(months: string | number[] | undefined, at: string): number[] {
  if (months === undefined) return [];
  const list = typeof months === "string" ? months.split(",").filter((item) => item.trim() !== "") : months;
  return list.map((item) => {
    const month = Number(item);
    if (!Number.isInteger(month) || month < 1 || month > 12) throw refuse(at, `"${item}" is not a month from 1 to 12.`);
    return month;
  });
}

/** The BY… parts of a custom rule of type `type`. */
function customParts(type: keyof typeof FREQUENCY, custom: ProCustom, at: string): string[] {
  if (type === "Weekly") {
    const days = [...new Set(custom.week?.day ?? [])].sort();
    return days.length ? [`BYDAY=${days.map((day) => WEEKDAYS[day - 1]).join(",")}`] : [];
  }
  if (type === "Monthly") return monthDayParts(custom.month, `${at}.month`);
  if (type === "Yearly") {
    const months = monthsOf(custom.year?.month, `${at}.year.month`);
    return [...(months.length ? [`BYMONTH=${months.join(",")}`] : []), ...monthDayParts(custom.year, `${at}.year`)];
  }
  return [];
}

/** Occurrences keep the event's time and length: another time for them is not a series' occurrence. */
function checkSameTime(custom: ProCustom | undefined, at: string): void {
  if (custom?.["same-time"] === "no") {
    throw refuse(
      `${at}.same-time`,
      'Every occurrence starts at the event\'s time and lasts as long: "no" (another time) is not supported.',
    );
  }
}

function isEvery(type: string): type is keyof typeof EVERY {
  return type in EVERY;
}

type Translated = { rrule: string } | { date: string };

/** One rule of the Pro shape: an RRULE's value, or the date of a "Date" rule. */
function translateRule(rule: ProRule, at: string, frame: ProFrame): Translated {
  const type = rule.type ?? (rule.custom?.type ? "Custom" : undefined);
  if (type === undefined) throw refuse(`${at}.type`, "The rule's type is required.");
  if (isEvery(type)) return { rrule: [`FREQ=${EVERY[type]}`, ...endParts(rule, at, frame)].join(";") };
  const customType = type === "Custom" ? rule.custom?.type : type;
  if (customType === undefined) throw refuse(`${at}.custom.type`, "A custom rule's type is required.");
  const custom = rule.custom ?? {};
  checkSameTime(custom, `${at}.custom`);
  if (customType === "Date") {
    const date = custom.date?.date ?? rule.end;
    if (date === undefined) throw refuse(`${at}.custom.date.date`, 'The date of a "Date" rule is required.');
    return { date };
  }
  const interval = custom.interval ?? 1;
  return {
    rrule: [
      `FREQ=${FREQUENCY[customType]}`,
      ...(interval > 1 ? [`INTERVAL=${interval}`] : []),
      ...customParts(customType, custom, `${at}.custom`),
      ...endParts(rule, at, frame),
    ].join(";"),
  };
}

function dateLine(name: "RDATE" | "EXDATE", dates: readonly string[]): string[] {
  return dates.length ? [`${name};VALUE=DATE:${dates.map(icalDate).join(",")}`] : [];
}

/**
 * The RFC 5545 lines of a Pro `recurrence`: its one repeating rule as the RRULE, its "Date" rules as RDATEs, its
 * excluded dates as EXDATEs (a DATE takes the event's time, as the plugin's exclusions do).
 */
export function proRecurrenceLines(recurrence: ProRecurrence, frame: ProFrame): string[] {
  const rrules: string[] = [];
  const rdates: string[] = [];
  recurrence.rules.forEach((rule, index) => {
    const translated = translateRule(rule, `rules.${index}`, frame);
    if ("date" in translated) rdates.push(translated.date);
    else if (rrules.length) {
      throw refuse(`rules.${index}`, 'A series has one repeating rule; give its other dates as "Date" rules.');
    } else rrules.push(translated.rrule);
  });
  const exdates = (recurrence.exclusions ?? []).map((exclusion, index) => {
    const translated = translateRule(exclusion, `exclusions.${index}`, frame);
    if ("rrule" in translated) {
      throw refuse(`exclusions.${index}.custom.type`, 'Only dates can be excluded: give each as a "Date" exclusion.');
    }
    return translated.date;
  });
  return [...rrules.map((rrule) => `RRULE:${rrule}`), ...dateLine("RDATE", rdates), ...dateLine("EXDATE", exdates)];
}

/** The lines of a `recurrence` as sent: given as lines, or translated from the Pro shape. */
export function recurrenceLinesOf(recurrence: string[] | ProRecurrence, frame: ProFrame): string[] {
  return Array.isArray(recurrence) ? recurrence : proRecurrenceLines(recurrence, frame);
}

import { z } from "zod";
import { MAX_RECURRENCE_LINE_LENGTH, MAX_RECURRENCE_LINES } from "./series.limits.ts";
import { proRecurrenceInput } from "./series.pro.ts";

/**
 * `recurrence` on write: RFC 5545 lines as Google Calendar's API takes them (`RRULE:…`, `EXDATE;TZID=…:…`,
 * `RDATE;VALUE=DATE:…`), read in the event's time zone (docs/behaviour.md, "Recurring series").
 */
export const recurrenceLinesInput = z
  .array(z.string().min(1).max(MAX_RECURRENCE_LINE_LENGTH))
  .min(1)
  .max(MAX_RECURRENCE_LINES)
  .meta({
    description:
      'RFC 5545 lines read in the event\'s time zone, e.g. ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10", "EXDATE;TZID=Europe/Berlin:20310121T190000"]: makes the event the first occurrence of a series.',
  });

/** `recurrence` on write: the lines, or The Events Calendar Pro's shape (translated by `recurrenceLinesOf`). */
export const recurrenceInput = z.union([recurrenceLinesInput, proRecurrenceInput]).meta({
  description:
    "Makes the event the first occurrence of a series: RFC 5545 lines read in the event's time zone, or The Events Calendar Pro's recurrence object (translated to lines).",
});
export type RecurrenceInput = z.infer<typeof recurrenceInput>;

/** The lines of the series an occurrence belongs to, as it reads back (null for a single event). */
export const recurrenceOutput = z.array(z.string()).nullable();

/** schema.org `Schedule` of a series' rule (docs/behaviour.md, "JSON-LD of an occurrence"). */
export const seriesScheduleJsonLd = z.object({
  "@type": z.literal("Schedule"),
  /** ISO 8601 duration between repetitions: `P1W`, `P2M`, `PT1H`. */
  repeatFrequency: z.string().optional(),
  /** `https://schema.org/Tuesday`, or iCalendar's `-1FR` for the nth weekday. */
  byDay: z.array(z.string()).optional(),
  byMonthDay: z.array(z.number().int()).optional(),
  byMonth: z.array(z.number().int()).optional(),
  startDate: z.string(),
  endDate: z.string().optional(),
  startTime: z.string().optional(),
  endTime: z.string().optional(),
  scheduleTimezone: z.string(),
  repeatCount: z.number().int().optional(),
  exceptDate: z.array(z.string()).optional(),
});
export type SeriesScheduleJsonLd = z.infer<typeof seriesScheduleJsonLd>;

/** schema.org `EventSeries` an occurrence's `Event` is part of (`superEvent`). */
export const eventSeriesJsonLd = z.object({
  "@type": z.literal("EventSeries"),
  name: z.string(),
  /** The first occurrence's page. */
  url: z.string(),
  /** Left out when the rule has a part schema.org cannot say (BYSETPOS), rather than a schedule that is wrong. */
  eventSchedule: seriesScheduleJsonLd.optional(),
});
export type EventSeriesJsonLd = z.infer<typeof eventSeriesJsonLd>;

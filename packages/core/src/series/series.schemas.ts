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
export const recurrenceInput = z.union([recurrenceLinesInput, proRecurrenceInput]);
export type RecurrenceInput = z.infer<typeof recurrenceInput>;

/** The lines of the series an occurrence belongs to, as it reads back (null for a single event). */
export const recurrenceOutput = z.array(z.string()).nullable();

import { z } from "zod";
import { isDateValue } from "../shared/dates.ts";

/** A date value: `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD`, ISO 8601, a Unix timestamp or natural language. */
export const dateValue = z.preprocess(
  (value: string | number) => (typeof value === "number" ? String(value) : value),
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine(isDateValue, "Not a date: use YYYY-MM-DD HH:MM:SS, ISO 8601, a Unix timestamp or words like tomorrow 9am."),
);
export type DateValue = z.infer<typeof dateValue>;

import { z } from "zod";
import { mlLanguage } from "../shared/language.ts";
import { wpBoolean } from "../shared/query.ts";

export const DEFAULT_HORIZON_MONTHS = 12;

/** The query of `POST /import`. */
export const importQuery = z.object({
  dry_run: wpBoolean.optional().meta({ description: "true: answer what the import would do, write nothing." }),
  horizon_months: z.coerce
    .number()
    .int()
    .min(1)
    .max(120)
    .default(DEFAULT_HORIZON_MONTHS)
    .meta({ description: "How far recurring series are expanded (months from the later of their start and today)." }),
  ml_language: mlLanguage,
});
export type ImportQuery = z.infer<typeof importQuery>;

export const importResult = z.object({
  created: z.array(z.number().int()),
  updated: z.array(z.number().int()),
  unchanged: z.number().int(),
  skipped: z.array(z.object({ uid: z.string(), reason: z.string() })),
  series: z.number().int(),
});
export type ImportResult = z.infer<typeof importResult>;

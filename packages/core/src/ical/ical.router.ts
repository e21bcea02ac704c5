import { scopeOf } from "../trpc/context.ts";
import { publicProcedure, router } from "../trpc/init.ts";
import { DEFAULT_SERIES_CAP, importCalendarInput, importResult } from "./ical.import.schemas.ts";
import { importCalendar } from "./ical.import.service.ts";

/**
 * `import.calendar`: the tRPC form of `POST /import` (editors and administrators). No REST operation: the REST
 * route takes the file as a `text/calendar` body, with its own body limit, beside the procedures.
 */
export const importRouter = router({
  calendar: publicProcedure
    .input(importCalendarInput)
    .output(importResult)
    .mutation(({ ctx, input }) =>
      importCalendar(scopeOf(ctx, input.ml_language), input.calendar, {
        dryRun: input.dry_run ?? false,
        horizonMonths: input.horizon_months,
        seriesCap: DEFAULT_SERIES_CAP,
      }),
    ),
});

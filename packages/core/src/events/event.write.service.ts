/** Kept for `ical/ical.import.service.ts` until it imports `newEventColumns` from `event.plan.ts`. */
export { newEventColumns } from "./event.plan.ts";

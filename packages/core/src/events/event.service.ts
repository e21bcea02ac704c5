/** Kept for `ical/ical.export.service.ts` until it imports from `event.get.service.ts`. */
export { getEvent, getEventBySlug } from "./event.get.service.ts";

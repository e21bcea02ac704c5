/** Kept for `ical/ical.import.service.ts` until it imports `runWrite` from `db/write.ts`, where it lives. */
export { runWrite } from "../db/write.ts";

import { z } from "zod";
import { listItems } from "./query.ts";

/** The publication statuses of events, venues and organizers (trash only through DELETE). */
export const WRITABLE_STATUSES = ["publish", "future", "draft", "pending", "private"] as const;
export const writableStatus = z.enum(WRITABLE_STATUSES).meta({ description: "Publication status." });
export type WritableStatus = z.infer<typeof writableStatus>;

/** The `status` list filter: one status or several (array or CSV), each a known one. */
export const statusFilter = z
  .preprocess(
    (value: string[] | string) => (value === undefined ? value : listItems(value)),
    z.array(z.enum([...WRITABLE_STATUSES, "trash"])).min(1),
  )
  .meta({ description: "Only items with these statuses (editors: any; others: publish only)." });

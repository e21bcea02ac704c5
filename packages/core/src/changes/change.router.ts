import { publicProcedure, router } from "../trpc/init.ts";
import { operation } from "../trpc/operation.ts";
import { changeListOutput, changeListQuery } from "./change.schemas.ts";
import { listChanges } from "./change.service.ts";

/** `/changes`: the change feed (sync tokens). */
export const changesRouter = router({
  list: publicProcedure
    .meta(
      operation({
        method: "GET",
        path: "/changes",
        tag: "changes",
        summary: "List changes since a sync token",
        description:
          "The changes of events, venues, organizers, categories and tags after `since` that the caller may see, oldest first, several changes of one record folded into its latest; a record that became visible to the caller is `created`, one that stopped being visible is `deleted`. Without `since`: a token for now and no changes (read the lists once, then sync from it).",
        errors: {
          400: "Malformed sync token or invalid parameter.",
          410: "The sync token has expired: do a full sync.",
        },
        // Each answer carries a sync token issued at the time of the request.
        cache: "body",
        record: null,
      }),
    )
    .input(changeListQuery)
    .output(changeListOutput)
    .query(({ ctx, input }) => listChanges(ctx.db, ctx.actor, input, { retentionDays: ctx.site.changesRetentionDays })),
});

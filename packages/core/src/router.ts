import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { categoriesRestAliases, categoriesRouter } from "./categories/category.router.ts";
import { changesRouter } from "./changes/change.router.ts";
import { eventsRestAliases, eventsRouter } from "./events/event.router.ts";
import { importRouter } from "./ical/ical.router.ts";
import { organizersRestAliases, organizersRouter } from "./organizers/organizer.router.ts";
import { tagsRestAliases, tagsRouter } from "./tags/tag.router.ts";
import { mergeRouters, router } from "./trpc/init.ts";
import { venuesRestAliases, venuesRouter } from "./venues/venue.router.ts";
import { webhooksRouter } from "./webhooks/webhook.router.ts";

/** The API as TypeScript apps see it (tRPC transport and the published client). */
export const appRouter = router({
  events: eventsRouter,
  categories: categoriesRouter,
  tags: tagsRouter,
  venues: venuesRouter,
  organizers: organizersRouter,
  changes: changesRouter,
  import: importRouter,
  webhooks: webhooksRouter,
});

/**
 * The REST surface: the app router plus the PUT/PATCH aliases of the update procedures (one procedure cannot
 * carry several HTTP methods in trpc-to-openapi). Kept out of `AppRouter` so clients see one `update`.
 */
export const restRouter = mergeRouters(
  appRouter,
  router({
    rest: router({
      events: eventsRestAliases,
      categories: categoriesRestAliases,
      tags: tagsRestAliases,
      venues: venuesRestAliases,
      organizers: organizersRestAliases,
    }),
  }),
);

export type AppRouter = typeof appRouter;
export type RestRouter = typeof restRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

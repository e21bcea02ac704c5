import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { mergeRouters, router } from "./trpc/init.ts";

/** The API as TypeScript apps see it (tRPC transport and the published client). */
export const appRouter = router({});

/**
 * The REST surface: the app router plus the PUT/PATCH aliases of the update procedures (one procedure cannot
 * carry several HTTP methods in trpc-to-openapi). Kept out of `AppRouter` so clients see one `update`.
 */
export const restRouter = mergeRouters(appRouter, router({ rest: router({}) }));

export type AppRouter = typeof appRouter;
export type RestRouter = typeof restRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

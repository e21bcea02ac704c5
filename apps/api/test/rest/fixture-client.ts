import type { TestUser } from "@calendar/core/testing";
import { createTRPCClient, httpBatchLink, isTRPCClientError, type TRPCClientError } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import type { fixtureAppRouter } from "../support/fixture-router.ts";

/* The fixture router (test/support/fixture-router.ts) over tRPC, typed by it (the calendar client is typed by the
   app router). */

export type FixtureRouter = typeof fixtureAppRouter;
/** What the fixture procedures answer: each echoes what the adapter delivered to it. */
export type Things = inferRouterOutputs<FixtureRouter>["things"];

/** A tRPC client of the fixture router, anonymous or as a user. */
export function fixtureClient(origin: string, as?: TestUser) {
  const headers = as ? { authorization: `Bearer ${as.token}` } : {};
  return createTRPCClient<FixtureRouter>({ links: [httpBatchLink({ url: `${origin}/trpc`, headers })] });
}

/** The error a tRPC call of the fixture router failed with; it must fail. */
export async function fixtureRejection(call: Promise<unknown>): Promise<TRPCClientError<FixtureRouter>> {
  const caught = await call.then(
    () => {
      throw new Error("The call succeeded.");
    },
    (error: unknown) => error,
  );
  if (!isTRPCClientError<FixtureRouter>(caught)) throw caught;
  return caught;
}

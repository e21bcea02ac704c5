import { publicProcedure, type ReadPolicy, router } from "@calendar/core";
import { z } from "zod";
import type { LimitDriver } from "./limit.driver.ts";
import { dialectOf, LIMIT_ROUTES, type LimitRoute } from "./limit.statements.ts";

/**
 * The stack floor's procedures: for each of the limit's reads, a procedure of the project's own (the core's
 * `publicProcedure`, REST metadata for trpc-to-openapi) that runs the limit's statement and returns its document.
 * What the floor costs beyond the limit is what the framework costs; what the API costs beyond the floor is ours.
 */

const openapiPath = (path: `/${string}`) => path.replace(/:(\w+)/g, "{$1}") as `/${string}`;

function floorProcedure(route: LimitRoute, driver: LimitDriver) {
  const dialect = dialectOf(driver.provider);
  const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
  // Path parameters declared, the query's parameters passed through as the list statements read them.
  const input = z.looseObject(Object.fromEntries(names.map((name) => [name, z.string()])));
  // The policy of the real routes at their cheapest: lists tagged by the version, items by their body.
  const http: ReadPolicy =
    names.length === 0 ? { cache: "version", movesWithClock: () => false } : { cache: "body", record: null };
  return publicProcedure
    .meta({ openapi: { method: "GET", path: openapiPath(route.path), summary: `Floor of ${route.path}` }, http })
    .input(input)
    .output(z.unknown())
    .query(async ({ input: values }) => {
      const params = Object.fromEntries(names.map((name) => [name, String(values[name])]));
      const body = await driver.body(route.statement(dialect, params, values));
      return body === null ? null : (JSON.parse(body) as unknown);
    });
}

export function floorRouter(driver: LimitDriver) {
  return router(
    Object.fromEntries(LIMIT_ROUTES.map((route, index) => [`read${index}`, floorProcedure(route, driver)])),
  );
}

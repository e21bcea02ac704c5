import type { DbHandle } from "@calendar/core";
import type { FastifyInstance } from "fastify";
import { buildServer } from "../src/server.ts";
import { floorRouter } from "./floor.router.ts";
import type { LimitDriver } from "./limit.driver.ts";

/**
 * The benchmark's "stack floor": the limit's statements served through the project's own server and REST path
 * (`buildServer` with the floor's procedures under trpc-to-openapi; `floor.router.ts`).
 */
export function buildFloorServer(handle: DbHandle, driver: LimitDriver): Promise<FastifyInstance> {
  const procedures = floorRouter(driver);
  return buildServer({
    handle,
    site: { timezone: "UTC" },
    bodyLimit: 1_048_576,
    routers: { rest: procedures, app: procedures },
    outputValidation: "off",
  });
}

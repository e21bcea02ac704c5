import { createDb } from "@calendar/core";
import { buildServer } from "../src/server.ts";
import { floorRouter } from "./floor.router.ts";
import { limitDriver } from "./limit.driver.ts";

/**
 * The benchmark's "stack floor": the limit's statements served through the project's own server and REST path
 * (`buildServer` with the floor's procedures under trpc-to-openapi; `floor.router.ts`). Started by the benchmark
 * with DATABASE_URL and PORT, like the limit server.
 */

const url = process.env.DATABASE_URL ?? "";
const procedures = floorRouter(limitDriver(url));
const server = await buildServer({
  handle: await createDb(url),
  site: { timezone: "UTC" },
  bodyLimit: 1_048_576,
  routers: { rest: procedures, app: procedures },
  outputValidation: "off",
});
await server.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });

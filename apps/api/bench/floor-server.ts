import { createDb } from "@calendar/core";
import { buildFloorServer } from "./floor.app.ts";
import { limitDriver } from "./limit.driver.ts";

/** The stack floor (`floor.app.ts`), started by the benchmark with DATABASE_URL and PORT, like the limit server. */
const url = process.env.DATABASE_URL ?? "";
const server = await buildFloorServer(await createDb(url), limitDriver(url));
await server.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });

import { buildLimitServer } from "./limit.app.ts";
import { limitDriver } from "./limit.driver.ts";

/** The limit server (`limit.app.ts`), started by the benchmark with DATABASE_URL and PORT; the site zone is UTC. */
const server = buildLimitServer(limitDriver(process.env.DATABASE_URL ?? ""));
await server.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });

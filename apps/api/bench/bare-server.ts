import Fastify from "fastify";

/**
 * The cache scenarios' yardstick: a bare Fastify route answering a constant JSON body, what a response cache at
 * best approaches on this machine.
 */
const BODY = JSON.stringify({ events: [], rest_url: "http://127.0.0.1/cal/events/v1/events/", total: 0 });

const server = Fastify();
server.get("/cal/events/v1/events", async (_request, reply) =>
  reply.type("application/json; charset=utf-8").send(BODY),
);
await server.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });
process.once("SIGTERM", () => void server.close());

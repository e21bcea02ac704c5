import { readFileSync } from "node:fs";
import Fastify from "fastify";
import type { BareAnswer } from "./cache-scenarios.ts";

/**
 * The cache scenarios' yardstick: a bare Fastify route answering, as a constant, the very answer the cached server
 * gives the scenario's request (status, content type, ETag, body bytes; `BARE_ANSWER_FILE`): what a response cache
 * at best approaches on this machine for answers of that size.
 */
const answer = JSON.parse(readFileSync(process.env.BARE_ANSWER_FILE ?? "", "utf8")) as BareAnswer;
const body = Buffer.from(answer.body, "base64");

const server = Fastify();
server.get("/*", async (_request, reply) => {
  reply.code(answer.status);
  if (answer.etag) reply.header("etag", answer.etag);
  if (answer.status === 304) return reply.send();
  return reply.type(answer.contentType).send(body);
});
await server.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });
process.once("SIGTERM", () => void server.close());

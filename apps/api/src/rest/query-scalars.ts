import { invalidParams } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { restOperations } from "./operations.ts";

/** The methods whose parameters trpc-to-openapi reads from the query string. */
const QUERY_METHODS = new Set(["GET", "DELETE"]);

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[] };

function acceptsList(schema: JsonSchema): boolean {
  if (Object.keys(schema).length === 0) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes("array") || [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(acceptsList);
}

/**
 * The query parameters that take one value in every operation that reads them from the query string. trpc-to-openapi
 * unwraps a one-item list (`page[]=2` reads as `page=2`), so the schemas cannot tell; WordPress refuses a list where
 * a scalar is declared.
 */
export function scalarQueryParameters(router: AnyTRPCRouter): ReadonlySet<string> {
  const scalars = new Set<string>();
  const lists = new Set<string>();
  for (const operation of restOperations(router)) {
    if (!operation.input || !QUERY_METHODS.has(operation.method)) continue;
    const document = z.toJSONSchema(operation.input, { io: "input", unrepresentable: "any" });
    const properties = (document.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, schema] of Object.entries(properties)) (acceptsList(schema) ? lists : scalars).add(name);
  }
  return new Set([...scalars].filter((name) => !lists.has(name)));
}

/**
 * 400 `rest_invalid_param` naming every scalar parameter the query string gave as a one-item list (`page[]=2`);
 * longer lists reach the schemas, which refuse them.
 */
export function refuseListsForScalars(request: FastifyRequest, scalars: ReadonlySet<string>): void {
  if (!QUERY_METHODS.has(request.method) || typeof request.query !== "object" || request.query === null) return;
  const lists = Object.entries(request.query).filter(
    ([name, value]) => Array.isArray(value) && value.length === 1 && scalars.has(name),
  );
  if (lists.length === 0) return;
  throw invalidParams(Object.fromEntries(lists.map(([name]) => [name, `${name} takes one value, not a list.`])));
}

import { asTrpcError, preconditionFailed, type UnchangedSince } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import type { TRPCRequestInfo } from "@trpc/server/http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ChangeVersionReader } from "../http/response-cache.ts";
import {
  checkWritePrecondition,
  hasWritePrecondition,
  type ItemRead,
  type itemReadResolver,
} from "../http/write-preconditions.ts";
import { API_PATH } from "../rest/base-paths.ts";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type ItemReadOf = ReturnType<typeof itemReadResolver>;

/**
 * The REST GET of the item a mutation writes: its procedure's REST path (`/events/{id}`) filled from the input, with
 * the input's values of the parameters that GET reads. None for a procedure without an item in its path (create).
 */
function itemRead(
  router: AnyTRPCRouter,
  itemReadOf: ItemReadOf,
  path: string,
  input: unknown,
): { url: string; type: ItemRead["type"] } | undefined {
  // A procedure is a function carrying its definition.
  const procedure: unknown = router._def.procedures[path];
  const definition: unknown = typeof procedure === "function" && "_def" in procedure ? procedure._def : undefined;
  const meta = isRecord(definition) ? definition.meta : undefined;
  const openapi = isRecord(meta) ? meta.openapi : undefined;
  const template = isRecord(openapi) ? openapi.path : undefined;
  if (typeof template !== "string" || !template.includes("{") || !isRecord(input)) return undefined;
  const itemPath = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(input[name] ?? "")));
  const read = itemReadOf(`${API_PATH}${itemPath}`);
  const search = new URLSearchParams();
  for (const name of read.params) {
    const value = input[name];
    if (typeof value === "string") search.set(name, value);
  }
  const query = search.toString();
  return { url: `${API_PATH}${itemPath}${query ? `?${query}` : ""}`, type: read.type };
}

/**
 * `If-Match` / `If-Unmodified-Since` on tRPC mutations of an item: the same rule as over REST (the item's ETag
 * or modified as the caller reads it over REST), checked before any procedure runs; a failure is a 412
 * `rest_precondition_failed` for the request and nothing is written. Returns the records the preconditions held
 * for, which the writes' transactions check again (`unchangedRecords` of the context).
 */
export async function checkTrpcWritePreconditions(
  server: FastifyInstance,
  router: AnyTRPCRouter,
  request: FastifyRequest,
  info: TRPCRequestInfo,
  checks: { readVersion: ChangeVersionReader; itemReadOf: ItemReadOf },
): Promise<UnchangedSince[]> {
  if (info.type !== "mutation" || !hasWritePrecondition(request)) return [];
  const { readVersion, itemReadOf } = checks;
  const unchanged: UnchangedSince[] = [];
  for (const call of info.calls) {
    const target = itemRead(router, itemReadOf, call.path, await call.getRawInput());
    if (target === undefined) continue;
    const checked = await checkWritePrecondition(server, request, target, readVersion);
    if (!checked.holds) throw asTrpcError(preconditionFailed());
    unchanged.push(...checked.unchanged);
  }
  return unchanged;
}

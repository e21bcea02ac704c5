import { asTrpcError, DomainError } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import type { TRPCRequestInfo } from "@trpc/server/http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  hasWritePrecondition,
  PRECONDITION_FAILED_CODE,
  PRECONDITION_FAILED_MESSAGE,
  REPRESENTATION_PARAMS,
  writePreconditionHolds,
} from "../http/write-preconditions.ts";
import { API_PATH } from "../rest/base-paths.ts";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The REST URL of the item a mutation writes: its procedure's REST path (`/events/{id}`) filled from the input,
 * with the parameters that choose the representation. None for a procedure without an item in its path (create).
 */
function itemUrl(router: AnyTRPCRouter, path: string, input: unknown): string | undefined {
  // A procedure is a function carrying its definition.
  const procedure: unknown = router._def.procedures[path];
  const definition: unknown = typeof procedure === "function" && "_def" in procedure ? procedure._def : undefined;
  const meta = isRecord(definition) ? definition.meta : undefined;
  const openapi = isRecord(meta) ? meta.openapi : undefined;
  const template = isRecord(openapi) ? openapi.path : undefined;
  if (typeof template !== "string" || !template.includes("{") || !isRecord(input)) return undefined;
  const itemPath = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(input[name] ?? "")));
  const search = new URLSearchParams();
  for (const name of REPRESENTATION_PARAMS) {
    const value = input[name];
    if (typeof value === "string") search.set(name, value);
  }
  const query = search.toString();
  return `${API_PATH}${itemPath}${query ? `?${query}` : ""}`;
}

/**
 * `If-Match` / `If-Unmodified-Since` on tRPC mutations of an item: the same rule as over REST (the item's ETag
 * or modified as the caller reads it over REST), checked before any procedure runs; a failure is a 412
 * `rest_precondition_failed` for the request and nothing is written.
 */
export async function checkTrpcWritePreconditions(
  server: FastifyInstance,
  router: AnyTRPCRouter,
  request: FastifyRequest,
  info: TRPCRequestInfo,
): Promise<void> {
  if (info.type !== "mutation" || !hasWritePrecondition(request)) return;
  for (const call of info.calls) {
    const url = itemUrl(router, call.path, await call.getRawInput());
    if (url !== undefined && !(await writePreconditionHolds(server, request, url))) {
      throw asTrpcError(new DomainError(412, PRECONDITION_FAILED_CODE, PRECONDITION_FAILED_MESSAGE));
    }
  }
}

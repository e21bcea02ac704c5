import type { ProcedureMeta, ReadPolicy } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { z } from "zod";
import { baseOfPath } from "./base-paths.ts";

export type OpenApiMethod = NonNullable<OpenApiMeta["openapi"]>["method"];

/** One REST operation of the router: method, path (relative to the API root) and its input schema. */
export interface RestOperation {
  method: OpenApiMethod;
  path: string;
  /** Matches the paths the operation serves (relative to a base path), as trpc-to-openapi matches them. */
  pattern: RegExp;
  input: z.ZodType | undefined;
  output: z.ZodType | undefined;
  summary: string | undefined;
  /** The failures the procedure declares: status → when it happens. */
  errorResponses: Record<string, string>;
  /** Does it require credentials (trpc-to-openapi's default)? */
  protect: boolean;
  /** A read's HTTP policy: how its answer is tagged, and when it moves with the clock. */
  http: ReadPolicy | undefined;
}

interface ProcedureLike {
  _def: { meta?: ProcedureMeta; inputs: unknown[]; output?: unknown };
}

function errorDescriptions(declared: NonNullable<OpenApiMeta["openapi"]>["errorResponses"]): Record<string, string> {
  if (declared === undefined) return {};
  if (Array.isArray(declared)) return Object.fromEntries(declared.map((status) => [String(status), "Error."]));
  return Object.fromEntries(Object.entries(declared));
}

/**
 * `/events/{id}` → a pattern matching `/events/12` (one path segment per parameter, an optional trailing slash),
 * case-insensitive as trpc-to-openapi's own.
 */
export function pathPattern(path: string): RegExp {
  const source = path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${source}/?$`, "i");
}

/** Every procedure the REST surface exposes, in router order. */
export function restOperations(router: AnyTRPCRouter): RestOperation[] {
  const procedures = Object.values(router._def.procedures) as ProcedureLike[];
  return procedures.flatMap(({ _def }) => {
    const openapi = _def.meta?.openapi;
    if (!openapi || openapi.enabled === false) return [];
    const [input] = _def.inputs;
    return [
      {
        method: openapi.method,
        path: openapi.path,
        pattern: pathPattern(openapi.path),
        input: input instanceof z.ZodType ? input : undefined,
        output: _def.output instanceof z.ZodType ? _def.output : undefined,
        summary: openapi.summary,
        errorResponses: errorDescriptions(openapi.errorResponses),
        protect: openapi.protect ?? true,
        http: _def.meta?.http,
      },
    ];
  });
}

/** The path below the REST base a URL path falls under (`/events/12` of `/de/cal/events/v1/events/12`). */
function pathBelowBase(urlPath: string): string | undefined {
  const base = baseOfPath(urlPath);
  return base ? urlPath.slice(base.path.length) : undefined;
}

/**
 * The operation that serves a method on a URL path (with or without its query): the first of the router with that
 * method whose path matches below a REST base, as trpc-to-openapi chooses it. Undefined where no procedure is (the
 * index, the document, the iCalendar routes, anything outside the REST bases).
 */
export function restOperationMatcher(router: AnyTRPCRouter) {
  const operations = restOperations(router);
  return (method: string, url: string): RestOperation | undefined => {
    const path = pathBelowBase(url.split("?", 1)[0] ?? "");
    if (path === undefined) return undefined;
    return operations.find((operation) => operation.method === method && operation.pattern.test(path));
  };
}

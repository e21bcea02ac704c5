import type { AnyTRPCRouter } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { z } from "zod";

export type OpenApiMethod = NonNullable<OpenApiMeta["openapi"]>["method"];

/** One REST operation of the router: method, path (relative to the API root) and its input schema. */
export interface RestOperation {
  method: OpenApiMethod;
  path: string;
  input: z.ZodType | undefined;
  summary: string | undefined;
  /** The failures the procedure declares: status → when it happens. */
  errorResponses: Record<string, string>;
  /** Does it require credentials (trpc-to-openapi's default)? */
  protect: boolean;
}

interface ProcedureLike {
  _def: { meta?: OpenApiMeta; inputs: unknown[] };
}

function errorDescriptions(declared: NonNullable<OpenApiMeta["openapi"]>["errorResponses"]): Record<string, string> {
  if (declared === undefined) return {};
  if (Array.isArray(declared)) return Object.fromEntries(declared.map((status) => [String(status), "Error."]));
  return Object.fromEntries(Object.entries(declared));
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
        input: input instanceof z.ZodType ? input : undefined,
        summary: openapi.summary,
        errorResponses: errorDescriptions(openapi.errorResponses),
        protect: openapi.protect ?? true,
      },
    ];
  });
}

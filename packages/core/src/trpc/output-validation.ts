import { type AnyTRPCRouter, TRPCError } from "@trpc/server";
import type { AnyMiddlewareFunction } from "@trpc/server/unstable-core-do-not-import";
import { z } from "zod";

/**
 * How responses are checked against their procedures' output schemas.
 * - `exact` (development, tests): every response must parse, AND parsing must not change it (no key stripped,
 *   reordered, defaulted or transformed), so the unchecked response of production is byte for byte the same;
 *   the response is sent as the procedure returned it.
 * - `off` (production): no check; the presenters' types are inferred from the same schemas, and every response
 *   was checked under test. The parse was ≈ 7 % of a single read's time.
 */
export type OutputValidation = "exact" | "off";

type Middleware = AnyMiddlewareFunction & { _type?: string };

/** What tRPC keeps of a built procedure and reads at every call (`middlewares` is read per call, by index). */
interface ProcedureDef {
  output?: unknown;
  middlewares: Middleware[];
}

function exactOutput(schema: z.ZodType): Middleware {
  const middleware: Middleware = async ({ next }) => {
    const result = await next();
    if (!result.ok) return result;
    const parsed = await schema.safeParseAsync(result.data);
    if (!parsed.success) {
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "Output validation failed", cause: parsed.error });
    }
    if (JSON.stringify(parsed.data) !== JSON.stringify(result.data)) {
      throw new TRPCError({
        code: "INTERNAL_SERVER_ERROR",
        message: "Output validation changed the response (production, which does not parse it, would send another)",
      });
    }
    return result;
  };
  middleware._type = "output";
  return middleware;
}

/**
 * Replaces tRPC's output middleware (marked `_type: "output"`) of every procedure of the router, in place:
 * procedures are built once per process and tRPC offers no switch. Applying it again replaces it again.
 */
export function setOutputValidation(router: AnyTRPCRouter, mode: OutputValidation): void {
  for (const procedure of Object.values(router._def.procedures)) {
    const def = (procedure as { _def: ProcedureDef })._def;
    const schema = def.output;
    if (!(schema instanceof z.ZodType)) continue;
    def.middlewares = def.middlewares.flatMap((middleware) => {
      if (middleware._type !== "output") return [middleware];
      return mode === "off" ? [] : [exactOutput(schema)];
    });
  }
}

import type { AppRouter } from "@calendar/core";
import type { TRPCLink } from "@trpc/client";
import type { CalendarLanguage } from "./types.ts";

function withLanguage(input: unknown, language: CalendarLanguage): unknown {
  if (input === undefined) return { ml_language: language };
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  if ("ml_language" in input && input.ml_language !== undefined) return input;
  return { ...input, ml_language: language };
}

/** Sends `ml_language` on every call that does not give one. */
export function languageLink(language: CalendarLanguage): TRPCLink<AppRouter> {
  return () =>
    ({ next, op }) =>
      next({ ...op, input: withLanguage(op.input, language) });
}

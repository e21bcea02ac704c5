import { z } from "zod";

export const LANGUAGES = ["zh-hans", "en", "fr", "de"] as const;
export const DEFAULT_LANGUAGE = "en";

export const languageSchema = z.enum(LANGUAGES);
export type Language = z.infer<typeof languageSchema>;

/** The optional `ml_language` parameter every operation takes. */
export const mlLanguage = languageSchema
  .optional()
  .meta({ description: "Language of the request: zh-hans, en, fr or de. Wins over a language prefix in the path." });

/** The request's language: an explicit `ml_language` wins over the path prefix; the default is English. */
export function resolveLanguage(explicit: Language | undefined, fromPath: Language | null): Language {
  return explicit ?? fromPath ?? DEFAULT_LANGUAGE;
}

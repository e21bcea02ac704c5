import { LANGUAGES, type Language } from "@calendar/core";

/** The interface's own path, under the site root or a language prefix. */
export const API_PATH = "/cal/events/v1" as const;
export const NAMESPACE = "cal/events/v1";

export interface RestBase {
  /** `""` or `/de`, `/fr`, … */
  prefix: string;
  language: Language | null;
  /** `/cal/events/v1` or `/de/cal/events/v1`, … */
  path: `/${string}`;
}

export const REST_BASES: readonly RestBase[] = [
  { prefix: "", language: null, path: API_PATH },
  ...LANGUAGES.map((language): RestBase => ({ prefix: `/${language}`, language, path: `/${language}${API_PATH}` })),
];

/** Does a URL path fall under one of the REST bases? */
export function isRestPath(path: string): boolean {
  return REST_BASES.some((base) => path === base.path || path.startsWith(`${base.path}/`));
}

/** `scheme://host` of the request, as the client addressed it. */
export function requestOrigin(request: { protocol: string; host: string }): string {
  return `${request.protocol}://${request.host}`;
}

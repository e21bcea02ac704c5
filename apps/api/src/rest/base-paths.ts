import { LANGUAGES, type Language } from "@calendar/core";
import type { FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyInstance {
    /** `CALENDAR_PUBLIC_URL`'s origin: what links are built from when set, whatever the request's Host says. */
    publicOrigin: string | undefined;
  }
}

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

/**
 * `scheme://host` links are built from: the configured public origin, else the request's `Host` with its scheme
 * (`X-Forwarded-Proto` when a trusted proxy sent it). Never `X-Forwarded-Host`: a shared cache keys on `Host`, not on
 * it, so a client could have it keep links to a host of its choosing for everyone else.
 */
export function requestOrigin(request: FastifyRequest): string {
  if (request.server.publicOrigin !== undefined) return request.server.publicOrigin;
  const scheme = request.protocol.toLowerCase() === "https" ? "https" : "http";
  return `${scheme}://${request.headers.host ?? request.headers[":authority"] ?? ""}`;
}

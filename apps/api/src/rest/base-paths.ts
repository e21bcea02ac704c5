import { LANGUAGES, type Language } from "@calendar/core";
import type { FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyInstance {
    /** `CALENDAR_PUBLIC_URL`'s origin: what links are built from when set, whatever the request's Host says. */
    publicOrigin: string | undefined;
  }
}

/** A path the whole API answers under, with the namespace its index names (WordPress keys routes by namespace). */
export interface ApiRoot {
  path: `/${string}`;
  namespace: string;
  /** The path whose index lists the namespace (its index's `up` link): the site root, or WordPress's `/wp-json`. */
  restRoot: "" | `/${string}`;
}

/** The interface's own, documented root. */
export const DOCUMENTED_ROOT = {
  path: "/cal/events/v1",
  namespace: "cal/events/v1",
  restRoot: "",
} as const satisfies ApiRoot;

/** WordPress's REST root: its index (`GET /wp-json/`) lists the namespaces; the discovery header points to it. */
export const WORDPRESS_REST_ROOT = "/wp-json";

/** The Events Calendar's path under WordPress, which its clients hard-code: the same API, its links kept on it. */
export const WORDPRESS_ROOT = {
  path: `${WORDPRESS_REST_ROOT}/tribe/events/v1`,
  namespace: "tribe/events/v1",
  restRoot: WORDPRESS_REST_ROOT,
} as const satisfies ApiRoot;

export const API_PATH = DOCUMENTED_ROOT.path;
export const NAMESPACE = DOCUMENTED_ROOT.namespace;

export interface RestBase {
  root: ApiRoot;
  /** `""` or `/de`, `/fr`, … */
  prefix: "" | `/${Language}`;
  language: Language | null;
  /** `/cal/events/v1`, `/de/cal/events/v1`, `/wp-json/tribe/events/v1`, … */
  path: `/${string}`;
}

const LANGUAGE_PREFIXES: ReadonlyArray<Pick<RestBase, "prefix" | "language">> = [
  { prefix: "", language: null },
  ...LANGUAGES.map((language) => ({ prefix: `/${language}` as const, language })),
];

function basesOf(root: ApiRoot): RestBase[] {
  return LANGUAGE_PREFIXES.map(({ prefix, language }) => ({ root, prefix, language, path: `${prefix}${root.path}` }));
}

/** Every base path the API is served under: each root under the site root and under each language prefix. */
export const SERVED_BASES: readonly RestBase[] = [...basesOf(DOCUMENTED_ROOT), ...basesOf(WORDPRESS_ROOT)];

/** The documented bases only, one per language prefix (what pages under a prefix link to). */
export const REST_BASES: readonly RestBase[] = SERVED_BASES.filter((base) => base.root === DOCUMENTED_ROOT);

/** The served base a URL path falls under, if any. */
export function baseOfPath(path: string): RestBase | undefined {
  return SERVED_BASES.find((base) => path === base.path || path.startsWith(`${base.path}/`));
}

/** Does a URL path fall under one of the served bases? */
export function isRestPath(path: string): boolean {
  return baseOfPath(path) !== undefined;
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

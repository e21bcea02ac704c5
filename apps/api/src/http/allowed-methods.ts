import type { AnyTRPCRouter } from "@trpc/server";
import type { FastifyInstance } from "fastify";
import { SERVED_BASES } from "../rest/base-paths.ts";
import { pathPattern, restOperations } from "../rest/operations.ts";

/** Methods a route may be called with, as `Allow` names them. */
type Methods = ReadonlySet<string>;

interface RoutePattern {
  pattern: RegExp;
  methods: Set<string>;
}

const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The procedures' routes relative to a base path. */
function restPatterns(router: AnyTRPCRouter): RoutePattern[] {
  const byPath = new Map<string, Set<string>>();
  for (const operation of restOperations(router)) {
    const methods = byPath.get(operation.path) ?? new Set<string>();
    methods.add(operation.method);
    byPath.set(operation.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({ pattern: pathPattern(path), methods }));
}

function withImplied(methods: Iterable<string>): Methods {
  const all = new Set(methods);
  if (all.has("GET")) all.add("HEAD");
  all.add("OPTIONS");
  return all;
}

/**
 * The methods a URL path answers to, for `Allow` (OPTIONS, 405-style answers); undefined when nothing is there.
 * REST paths are matched against the procedures (trpc-to-openapi serves them through one wildcard route) and the
 * plain routes beside them (the index, the document, the feed), other paths against Fastify's own routes.
 */
export function allowedMethodsResolver(server: FastifyInstance, router: AnyTRPCRouter) {
  const patterns = restPatterns(router);
  const routeMethods = (url: string) => OTHER_METHODS.filter((method) => server.hasRoute({ method, url }));
  return (path: string): Methods | undefined => {
    for (const base of SERVED_BASES) {
      if (path !== base.path && !path.startsWith(`${base.path}/`)) continue;
      const rest = path.slice(base.path.length).replace(/\/$/, "");
      const methods = [
        ...patterns.filter((route) => route.pattern.test(rest)).flatMap((route) => [...route.methods]),
        ...routeMethods(`${base.path}${rest}`),
      ];
      return methods.length > 0 ? withImplied(methods) : undefined;
    }
    const url = path.startsWith("/trpc/") ? "/trpc/:path" : path;
    const methods = routeMethods(url);
    return methods.length > 0 ? withImplied(url === "/trpc/:path" ? ["GET", "POST"] : methods) : undefined;
  };
}

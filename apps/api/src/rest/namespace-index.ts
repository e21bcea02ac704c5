import { domainError, languageSchema } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import { z } from "zod";
import type { ApiRoot } from "./base-paths.ts";
import { ICAL_OPERATIONS } from "./ical.operations.ts";
import { type OpenApiMethod, restOperations } from "./operations.ts";

/** The JSON-schema keywords an index argument keeps (WordPress' `get_data_for_route`). */
const ARG_KEYWORDS = ["type", "default", "description", "items", "enum", "format", "minimum", "maximum"] as const;

type JsonSchema = {
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
};

export type IndexArg = Record<string, unknown> & { required: boolean };

/** The arguments of an operation as the index lists them: input-side types, output-side defaults. */
export function argsOf(input: z.ZodType | undefined): Record<string, IndexArg> {
  if (!input) return {};
  const accepted = z.toJSONSchema(input, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const parsed = z.toJSONSchema(input, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const required = new Set(accepted.required ?? []);
  const args: Record<string, IndexArg> = {};
  for (const [name, schema] of Object.entries(accepted.properties ?? {})) {
    const withDefault: Record<string, unknown> = { ...schema, default: parsed.properties?.[name]?.default };
    const kept = Object.fromEntries(
      ARG_KEYWORDS.filter((key) => withDefault[key] !== undefined).map((key) => [key, withDefault[key]]),
    );
    args[name] = { ...kept, required: required.has(name) };
  }
  return args;
}

/** `/events/{id}` → `/cal/events/v1/events/(?P<id>\d+)`: WordPress keys routes by namespace and pattern. */
function routePattern(namespace: string, path: string): string {
  return `/${namespace}${path}`.replace("{id}", "(?P<id>\\d+)").replace("{slug}", "(?P<slug>[^/]+)");
}

const METHOD_ORDER: readonly OpenApiMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

interface IndexEndpoint {
  methods: OpenApiMethod[];
  args: Record<string, IndexArg>;
}

interface IndexRoute {
  methods: OpenApiMethod[];
  endpoints: IndexEndpoint[];
}

/** The query of a root's index: its namespace by default. */
export function indexQueryOf(root: ApiRoot) {
  return z.object({
    namespace: z.string().default(root.namespace).meta({ description: "The namespace to describe." }),
    context: z.enum(["view", "embed", "edit"]).default("view").meta({ description: "Scope of the request." }),
    ml_language: languageSchema.optional().meta({ description: "Language of the request." }),
  });
}

export const docQuery = z.object({
  ml_language: languageSchema.optional().meta({ description: "Language of the request." }),
});

/** One method of one route: the procedures', the index's and the document's own, the iCalendar routes'. */
interface IndexedOperation {
  method: OpenApiMethod;
  path: string;
  args: Record<string, IndexArg>;
}

function indexedOperations(router: AnyTRPCRouter, root: ApiRoot): IndexedOperation[] {
  const without = (args: Record<string, IndexArg>, names: readonly string[] = []) =>
    Object.fromEntries(Object.entries(args).filter(([name]) => !names.includes(name)));
  return [
    { method: "GET", path: "", args: argsOf(indexQueryOf(root)) },
    { method: "GET", path: "/doc", args: argsOf(docQuery) },
    ...restOperations(router).map(({ method, path, input }) => ({ method, path, args: argsOf(input) })),
    ...ICAL_OPERATIONS.map(({ method, path, input, unlisted }) => ({
      method,
      path,
      args: without(argsOf(input), unlisted),
    })),
  ];
}

function groupByPath(operations: IndexedOperation[]): Map<string, IndexedOperation[]> {
  const byPath = new Map<string, IndexedOperation[]>();
  for (const operation of operations) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  return byPath;
}

function routeOf(operations: IndexedOperation[]): IndexRoute {
  const sorted = [...operations].sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
  return {
    methods: sorted.map((operation) => operation.method),
    endpoints: sorted.map(({ method, args }) => ({ methods: [method], args })),
  };
}

export interface NamespaceIndex {
  namespace: string;
  routes: Record<string, IndexRoute & { namespace: string; _links?: { self: Array<{ href: string }> } }>;
  _links: { up: Array<{ href: string }> };
}

type BuiltIndex = ReturnType<typeof buildNamespaceIndex>;

/** The indexes built, per router and root: each is built once per process, however many servers serve it. */
const builtIndexes = new WeakMap<AnyTRPCRouter, Map<ApiRoot, BuiltIndex>>();

/**
 * A root's index of every route, built once; `render` adds the links of the request's own API root (`apiRoot`, e.g.
 * `https://example.org/de/wp-json/tribe/events/v1`) and REST root (`up`).
 */
export function createNamespaceIndex(router: AnyTRPCRouter, root: ApiRoot): BuiltIndex {
  const ofRouter = builtIndexes.get(router) ?? new Map<ApiRoot, BuiltIndex>();
  builtIndexes.set(router, ofRouter);
  const index = ofRouter.get(root) ?? buildNamespaceIndex(router, root);
  ofRouter.set(root, index);
  return index;
}

function buildNamespaceIndex(router: AnyTRPCRouter, root: ApiRoot) {
  const routes = [...groupByPath(indexedOperations(router, root))].map(([path, operations]) => ({
    path,
    route: routeOf(operations),
  }));
  return {
    render(apiRoot: string, restRoot: string, namespace: string): NamespaceIndex {
      if (namespace !== root.namespace) throw domainError("rest_invalid_namespace");
      const entries = routes.map(({ path, route }) => {
        const links = path.includes("{") ? {} : { _links: { self: [{ href: `${apiRoot}${path}` }] } };
        return [routePattern(root.namespace, path), { namespace: root.namespace, ...route, ...links }];
      });
      return { namespace: root.namespace, routes: Object.fromEntries(entries), _links: { up: [{ href: restRoot }] } };
    },
  };
}

import { domainError, languageSchema } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import { z } from "zod";
import { API_PATH, NAMESPACE } from "./base-paths.ts";
import { type OpenApiMethod, type RestOperation, restOperations } from "./operations.ts";

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

/** `/events/{id}` → `/cal/events/v1/events/(?P<id>\d+)`, as WordPress names its routes. */
export function routePattern(path: string): string {
  return `${API_PATH}${path}`.replace("{id}", "(?P<id>\\d+)").replace("{slug}", "(?P<slug>[^/]+)");
}

const METHOD_ORDER: readonly OpenApiMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

interface IndexEndpoint {
  methods: OpenApiMethod[];
  args: Record<string, IndexArg>;
}

interface IndexRoute {
  namespace: string;
  methods: OpenApiMethod[];
  endpoints: IndexEndpoint[];
  _links?: { self: Array<{ href: string }> };
}

export const indexQuery = z.object({
  namespace: z.string().default(NAMESPACE).meta({ description: "The namespace to describe." }),
  context: z.enum(["view", "embed", "edit"]).default("view").meta({ description: "Scope of the request." }),
  ml_language: languageSchema.optional().meta({ description: "Language of the request." }),
});

export const docQuery = indexQuery.pick({ ml_language: true });

function staticRoutes(): Array<[string, IndexRoute]> {
  return [
    ["", { namespace: NAMESPACE, methods: ["GET"], endpoints: [{ methods: ["GET"], args: argsOf(indexQuery) }] }],
    ["/doc", { namespace: NAMESPACE, methods: ["GET"], endpoints: [{ methods: ["GET"], args: argsOf(docQuery) }] }],
  ];
}

function groupByPath(operations: RestOperation[]): Map<string, RestOperation[]> {
  const byPath = new Map<string, RestOperation[]>();
  for (const operation of operations) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  return byPath;
}

function routeOf(operations: RestOperation[]): IndexRoute {
  const sorted = [...operations].sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
  return {
    namespace: NAMESPACE,
    methods: sorted.map((operation) => operation.method),
    endpoints: sorted.map((operation) => ({ methods: [operation.method], args: argsOf(operation.input) })),
  };
}

export interface NamespaceIndex {
  namespace: string;
  routes: Record<string, IndexRoute>;
  _links: { up: Array<{ href: string }> };
}

/** Builds the index of every route once; `render` adds the links of a request's own root. */
export function createNamespaceIndex(router: AnyTRPCRouter) {
  const routes: Array<[string, IndexRoute]> = [
    ...staticRoutes(),
    ...[...groupByPath(restOperations(router))].map(([path, operations]): [string, IndexRoute] => [
      path,
      routeOf(operations),
    ]),
  ];
  return {
    render(apiRoot: string, origin: string, namespace: string): NamespaceIndex {
      if (namespace !== NAMESPACE) {
        throw domainError("rest_invalid_namespace");
      }
      const entries = routes.map(([path, route]) => {
        const links = path.includes("{") ? {} : { _links: { self: [{ href: `${apiRoot}${path}` }] } };
        return [routePattern(path), { ...route, ...links }];
      });
      return { namespace: NAMESPACE, routes: Object.fromEntries(entries), _links: { up: [{ href: `${origin}/` }] } };
    },
  };
}

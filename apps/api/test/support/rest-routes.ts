import type { RouterOutputs } from "@calendar/core";
import type { RestErrorBody } from "../../src/rest/envelope.ts";

/**
 * The REST routes of the resources, `"METHOD /path"` relative to a base path (`/cal/events/v1`), each typed by the
 * output of the procedure that serves it (the paths of `events/event.router.ts`, `venues/venue.router.ts`, …).
 */
type Resource = "events" | "venues" | "organizers" | "categories" | "tags";
type WithSlugs = "events" | "venues" | "organizers";
type Update = "POST" | "PUT" | "PATCH";

type ResourceRoutes<R extends Resource> = {
  [K in `GET /${R}`]: RouterOutputs[R]["list"];
} & { [K in `POST /${R}`]: RouterOutputs[R]["create"] } & {
  [K in `GET /${R}/{id}`]: RouterOutputs[R]["get"];
} & { [K in `${Update} /${R}/{id}`]: RouterOutputs[R]["update"] } & {
  [K in `DELETE /${R}/{id}`]: RouterOutputs[R]["delete"];
};

type SlugRoutes<R extends WithSlugs> = {
  [K in `GET /${R}/by-slug/{slug}`]: RouterOutputs[R]["getBySlug"];
} & { [K in `${Update} /${R}/by-slug/{slug}`]: RouterOutputs[R]["updateBySlug"] } & {
  [K in `DELETE /${R}/by-slug/{slug}`]: RouterOutputs[R]["deleteBySlug"];
};

export type RestRoutes = ResourceRoutes<"events"> &
  ResourceRoutes<"venues"> &
  ResourceRoutes<"organizers"> &
  ResourceRoutes<"categories"> &
  ResourceRoutes<"tags"> &
  SlugRoutes<"events"> &
  SlugRoutes<"venues"> &
  SlugRoutes<"organizers">;

export type RestRoute = keyof RestRoutes & string;

/** The path parameters a route names (`{id}`, `{slug}`). */
export type RouteParams<R extends string> = R extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string | number } & RouteParams<Rest>
  : unknown;

/** The method and the path of a route, with its parameters filled in (encoded). */
export function routeTarget(route: RestRoute, params: Record<string, string | number> = {}) {
  const [method = "GET", template = "/"] = route.split(" ");
  const path = template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route}: no value for {${name}}.`);
    return encodeURIComponent(String(value));
  });
  return { method, path };
}

export type { RestErrorBody };
